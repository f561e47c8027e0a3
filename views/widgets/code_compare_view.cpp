#include "views/widgets/code_compare_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDataStream>
#include <QHBoxLayout>
#include <QIODevice>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "core/hash/sha256.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_format.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/logic/runtime_evidence.h"
#include "views/logic/speedup_format.h"
#include "views/logic/speedup_trust.h"
#include "views/logic/task_label.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/elided_label.h"
#include "views/widgets/gemm_task_header.h"

namespace ks {
namespace {

// A program as the panes show it: a run file's program is read back from the file here, and one that cannot
// be (the file was changed in place since it was opened) shows why instead of taking the window down.
std::string shownText(const ProgramText& text) {
  try {
    return text.value();
  } catch (const TextReadError& e) {
    return std::string("# KernelScope could not read this program back: ") + e.what() + "\n";
  }
}

CodeEditor::Language editorLanguage(CodeLanguage language) {
  return language == CodeLanguage::Python ? CodeEditor::Language::Python : CodeEditor::Language::Cpp;
}

constexpr quint32 kCompareStateVersion = 1;
// Characters the two choices show at least; their lists show whole names. Short, so that the candidate's
// header keeps room for its verdict and claim at 1024 pixels.
constexpr int kChoiceCharacters = 10;

}  // namespace

CodeCompareView::CodeCompareView(QWidget* parent)
    : QWidget(parent),
      m_referenceTitle(new ElidedLabel(this)),
      m_candidateTitle(new ElidedLabel(this)),
      m_candidateVerdict(new QLabel(this)),
      m_candidateClaim(new ElidedLabel(this)),
      m_referenceChoice(new QComboBox(this)),
      m_candidateChoice(new QComboBox(this)),
      m_reference(new CodeEditor(this)),
      m_program(new CodeEditor(this)),
      m_source(new CodeEditor(this)),
      m_placeholder(new QLabel(this)),
      m_edit(new QToolButton(this)),
      m_revert(new QToolButton(this)),
      m_editNotice(new QLabel(this)),
      m_rediff(new QTimer(this)),
      m_candidateStack(new QStackedWidget(this)),
      m_splitter(new QSplitter(Qt::Horizontal, this)),
      m_note(new QLabel(this)),
      m_gemm(new GemmTaskHeader(this)),
      m_stats(new QLabel(this)),
      m_sync(new QCheckBox(tr("Sync scrolling"), this)) {
  m_referenceTitle->setObjectName(QStringLiteral("referenceTitle"));
  m_candidateTitle->setObjectName(QStringLiteral("candidateTitle"));
  // The candidate's header: the trust rule's verdict (never elided: it is what a narrow header keeps), the
  // id, and the recorded claim, struck through for a caught hack (speedup_trust.h, claimDisplay). The id and
  // the claim take their full widths when there is room and shorten together when there is not.
  m_candidateVerdict->setObjectName(QStringLiteral("candidateVerdict"));
  m_candidateVerdict->setTextFormat(Qt::PlainText);
  m_candidateVerdict->setStyleSheet(QStringLiteral(
      "QLabel { color: #8e1c1c; background: #fdecea; border-left: 3px solid #c62828; padding: 0px 4px; "
      "font-weight: bold; }"));
  m_candidateVerdict->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Preferred);
  m_candidateVerdict->hide();
  m_candidateClaim->setObjectName(QStringLiteral("candidateClaim"));
  for (ElidedLabel* label : {m_candidateTitle, m_candidateClaim})
    label->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  m_reference->setObjectName(QStringLiteral("referenceEditor"));
  m_program->setObjectName(QStringLiteral("candidateEditor"));
  m_source->setObjectName(QStringLiteral("sourceEditor"));
  m_referenceChoice->setObjectName(QStringLiteral("referenceChoice"));
  m_referenceChoice->setToolTip(
      tr("Compare against the task's reference, one of its baseline programs or the candidate's parent"));
  m_candidateChoice->setObjectName(QStringLiteral("candidateChoice"));
  m_candidateChoice->setToolTip(tr("The candidate program, or a CUDA/C++ source it builds with load_inline"));
  m_candidateChoice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_candidateChoice->setMinimumContentsLength(kChoiceCharacters);
  m_referenceChoice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_referenceChoice->setMinimumContentsLength(kChoiceCharacters);
  m_placeholder->setAlignment(Qt::AlignCenter);
  m_placeholder->setWordWrap(true);
  m_placeholder->setMargin(24);
  m_placeholder->setStyleSheet(QStringLiteral("color: #57606a; background: #f6f8fa;"));
  m_edit->setObjectName(QStringLiteral("editToggle"));
  m_edit->setText(tr("Edit"));
  m_edit->setCheckable(true);
  m_edit->setToolTip(
      tr("Edit the candidate program (Ctrl+E). The edit is a new version of the candidate, autosaved and "
         "kept apart from the recorded program; Run (F9) times it"));
  m_revert->setObjectName(QStringLiteral("revertEdit"));
  m_revert->setText(tr("Revert"));
  m_revert->setToolTip(tr("Discard the edit and show the recorded program again"));
  m_editNotice->setObjectName(QStringLiteral("editNotice"));
  m_editNotice->setWordWrap(true);
  m_editNotice->setMargin(4);
  m_editNotice->setStyleSheet(
      QStringLiteral("background: #fff8c5; color: #4d2d00; border-bottom: 1px solid #d4a72c;"));
  m_editNotice->hide();
  m_rediff->setSingleShot(true);
  m_rediff->setInterval(300);
  connect(m_rediff, &QTimer::timeout, this, &CodeCompareView::updateDiff);
  m_candidateStack->addWidget(m_program);
  m_candidateStack->addWidget(m_source);
  m_candidateStack->addWidget(m_placeholder);

  m_splitter->setObjectName(QStringLiteral("codeSplitter"));
  auto* candidateBody = new QWidget(this);
  auto* candidateLayout = new QVBoxLayout(candidateBody);
  candidateLayout->setContentsMargins(0, 0, 0, 0);
  candidateLayout->setSpacing(0);
  candidateLayout->addWidget(m_editNotice);
  candidateLayout->addWidget(m_candidateStack, 1);
  m_splitter->addWidget(makeSide(tr("Reference"), {m_referenceTitle}, {m_referenceChoice}, m_reference));
  m_splitter->addWidget(makeSide(tr("Candidate"), {m_candidateVerdict, m_candidateTitle, m_candidateClaim},
                                 {m_edit, m_revert, m_candidateChoice}, candidateBody));
  m_splitter->setChildrenCollapsible(false);
  // Half each, whatever their headers ask for (a long claim would otherwise widen the candidate's side).
  m_splitter->setSizes({1000, 1000});

  m_note->setWordWrap(true);
  m_note->setTextFormat(Qt::RichText);
  m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_stats->setObjectName(QStringLiteral("diffStats"));
  m_stats->setTextFormat(Qt::RichText);
  m_sync->setObjectName(QStringLiteral("syncScrolling"));
  m_sync->setChecked(true);
  m_sync->setToolTip(tr("Scroll both sides together, aligned by the diff"));

  auto* bottom = new QHBoxLayout;
  bottom->setContentsMargins(4, 0, 4, 0);
  bottom->addWidget(m_note, 1);
  bottom->addWidget(m_stats);
  bottom->addSpacing(12);
  bottom->addWidget(m_sync);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 4);
  layout->setSpacing(4);
  layout->addWidget(m_gemm);  // GEMM tasks only: shape, tile configuration, the reference in words
  layout->addWidget(m_splitter, 1);
  layout->addLayout(bottom);

  connect(m_referenceChoice, &QComboBox::currentIndexChanged, this, &CodeCompareView::showReference);
  connect(m_candidateChoice, &QComboBox::currentIndexChanged, this, &CodeCompareView::showCandidateView);
  connect(m_sync, &QCheckBox::toggled, this, [this](bool on) {
    if (on) syncFrom(m_reference, m_program, true);
  });
  connect(m_reference, &CodeEditor::scrolled, this, [this] { syncFrom(m_reference, m_program, true); });
  connect(m_program, &CodeEditor::scrolled, this, [this] { syncFrom(m_program, m_reference, false); });
  connect(m_program, &QsciScintilla::textChanged, this, &CodeCompareView::programChanged);
  connect(m_edit, &QToolButton::toggled, this, &CodeCompareView::setEditing);
  connect(m_revert, &QToolButton::clicked, this, &CodeCompareView::revertEdit);
  showRow(nullptr, -1);
}

QWidget* CodeCompareView::makeSide(const QString& role, QList<QWidget*> titles, QList<QWidget*> tools,
                                   QWidget* body) {
  auto* side = new QWidget(this);
  auto* header = new QHBoxLayout;
  header->setContentsMargins(4, 2, 4, 0);
  auto* roleLabel = new QLabel(role, side);
  QFont bold = roleLabel->font();
  bold.setBold(true);
  roleLabel->setFont(bold);
  header->addWidget(roleLabel);
  if (titles.size() == 1) {
    header->addWidget(titles.front(), 1);
  } else {  // the candidate's parts keep their own widths (a stretch after them)
    for (QWidget* title : titles) header->addWidget(title);
    header->addStretch(1);
  }
  for (QWidget* tool : tools) header->addWidget(tool);
  auto* layout = new QVBoxLayout(side);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(header);
  layout->addWidget(body, 1);
  return side;
}

void CodeCompareView::showRow(std::shared_ptr<const LoadedRun> run, int row) {
  m_run = std::move(run);
  m_row = m_run && row >= 0 && row < m_run->rowCount() ? row : -1;
  m_sources.clear();
  m_runtimeFlags.clear();
  const QSignalBlocker blockReference(m_referenceChoice);
  const QSignalBlocker blockCandidate(m_candidateChoice);
  m_referenceChoice->clear();
  m_candidateChoice->clear();
  m_rediff->stop();
  m_problems.clear();
  m_edited = false;
  m_editNotice->hide();
  m_revert->setEnabled(false);
  setEditing(false);
  m_edit->setEnabled(hasProgram());

  if (m_row < 0) {
    m_referenceTitle->setFullText({});
    updateCandidateTitle();
    m_reference->showText({}, CodeEditor::Language::Python);
    m_placeholder->setText(m_run ? tr("Select a task in the list to compare its reference and candidate.")
                                 : tr("Open a run file (Ctrl+O) or a KernelBench folder to compare "
                                      "reference and generated code."));
    m_candidateStack->setCurrentWidget(m_placeholder);
    m_referenceChoice->setEnabled(false);
    m_candidateChoice->setEnabled(false);
    m_candidateChoice->hide();
    m_note->clear();
    m_stats->clear();
    m_diff = LineDiff();
    return;
  }

  const Task& task = m_run->task(m_row);
  const Candidate* c = m_run->candidate(m_row);
  m_referenceTitle->setFullText(QString::fromStdString(taskTitle(task)));
  m_referenceChoice->addItem(tr("Reference"));
  for (const auto& [name, program] : task.baselinePrograms)
    m_referenceChoice->addItem(tr("Baseline: %1").arg(QString::fromStdString(name)));
  m_parentRows.clear();
  if (c)
    for (const std::string& parent : c->parents) {
      const int parentRow = m_run->findRow(task.key(), parent);
      const Candidate* p = parentRow >= 0 ? m_run->candidate(parentRow) : nullptr;
      if (!p || !p->code) continue;
      m_parentRows.push_back(parentRow);
      m_referenceChoice->addItem(tr("Parent: %1").arg(QString::fromStdString(parent)));
    }
  m_referenceChoice->setEnabled(m_referenceChoice->count() > 1);

  updateCandidateTitle();
  if (c && c->code) {
    m_loadingProgram = true;
    m_program->showText(QString::fromStdString(shownText(c->code)), editorLanguage(c->language));
    m_loadingProgram = false;
    markFlags(m_program);
    fillCandidateChoices(shownText(c->code));
    m_candidateStack->setCurrentWidget(m_program);
  } else {
    m_candidateChoice->addItem(tr("Program"));
    m_loadingProgram = true;
    m_program->showText({}, CodeEditor::Language::Python);
    m_loadingProgram = false;
    m_placeholder->setText(
        c ? tr("The file records no program for candidate %1 of %2 (for CUDA-L1: no faster "
               "kernel was found).")
                .arg(QString::fromStdString(c->id), QString::fromStdString(task.key()))
          : tr("%1 has no candidate: only its reference is recorded.")
                .arg(QString::fromStdString(task.key())));
    m_candidateStack->setCurrentWidget(m_placeholder);
  }
  m_candidateChoice->setEnabled(m_candidateChoice->count() > 1);
  // Shown only with a choice to make (a program that embeds sources): the header's room is the verdict's.
  m_candidateChoice->setVisible(m_candidateChoice->count() > 1);
  m_sync->setEnabled(true);
  const int firstParent = static_cast<int>(task.baselinePrograms.size()) + 1;
  const int choice = m_parentMode && !m_parentRows.empty() ? firstParent : 0;
  m_referenceChoice->setCurrentIndex(choice);
  showReference(choice);
}

void CodeCompareView::setParentMode(bool on) {
  // The window's Code tab is found by its parts' names (tests, the window's own lookups): this second
  // compare's parts get their own.
  if (on && !m_parentMode)
    for (QObject* child : findChildren<QObject*>())
      if (!child->objectName().isEmpty())
        child->setObjectName(QStringLiteral("parent.") + child->objectName());
  m_parentMode = on;
  m_edit->setVisible(!on);
  m_revert->setVisible(!on);
  if (on) setEditing(false);
  showRow(m_run, m_row);
}

QString CodeCompareView::shownParent() const {
  if (m_row < 0) return {};
  const int parent =
      m_referenceChoice->currentIndex() - 1 - static_cast<int>(m_run->task(m_row).baselinePrograms.size());
  if (parent < 0 || parent >= static_cast<int>(m_parentRows.size())) return {};
  return QString::fromStdString(m_run->candidate(m_parentRows[static_cast<std::size_t>(parent)])->id);
}

void CodeCompareView::fillCandidateChoices(const std::string& program) {
  const QSignalBlocker block(m_candidateChoice);
  const int current = m_candidateChoice->currentIndex();
  m_candidateChoice->clear();
  m_candidateChoice->addItem(tr("Program"));
  const Candidate* c = m_run->candidate(m_row);
  m_sources =
      c->language == CodeLanguage::Python ? extractEmbeddedSources(program) : std::vector<EmbeddedSource>{};
  for (const EmbeddedSource& s : m_sources) {
    const int last = s.pythonLine(static_cast<int>(std::count(s.text.begin(), s.text.end(), '\n')) + 1);
    const int first = s.pythonLine(1);
    m_candidateChoice->addItem(tr("%1 — %2, lines %3–%4")
                                   .arg(QString::fromStdString(s.name),
                                        s.language == "cuda" ? QStringLiteral("CUDA") : QStringLiteral("C++"))
                                   .arg(first)
                                   .arg(last));
  }
  m_candidateChoice->setCurrentIndex(current > 0 && current < m_candidateChoice->count() ? current : 0);
  m_candidateChoice->setEnabled(m_candidateChoice->count() > 1);
  // Shown only with a choice to make (a program that embeds sources): the header's room is the verdict's.
  m_candidateChoice->setVisible(m_candidateChoice->count() > 1);
}

void CodeCompareView::updateCandidateTitle() {
  const Candidate* c = m_row < 0 || !m_run ? nullptr : m_run->candidate(m_row);
  QString id, claim;
  ClaimDisplay shown;
  SpeedupTrust trust;
  if (c) {
    id = QString::fromStdString(c->id);
    if (m_edited) id += tr(" (edited)");
    trust = speedupTrust(*m_run, m_open ? m_open->history().get() : nullptr, m_row);
    shown = claimDisplay(trust);
    // The claim in the series the window shows (the Speedup column's); "default" needs no name.
    const SpeedupSeries series = m_open ? m_open->series() : m_run->series().front();
    if (const auto s = recordedSpeedup(*c, series))
      claim =
          series.isDefault()
              ? tr("%1 recorded").arg(formatSpeedup(*s))
              : tr("%1 recorded vs %2").arg(formatSpeedup(*s), QString::fromStdString(seriesLabel(series)));
    // A GEMM run whose two methods part: which number answers "does the claim reproduce?" (method_gap.h),
    // over the claim's baseline.
    const runs::MeasuredRun* latest = m_open && m_open->history() ? m_open->history()->latestOfRecorded(m_row) : nullptr;
    if (latest && m_run->task(m_row).gemm) {
      const QString gap = methodGapSummary(*latest, series.isDefault() ? "torch.matmul" : series.baseline);
      if (!gap.isEmpty()) claim = claim.isEmpty() ? gap : claim + QStringLiteral(" · ") + gap;
    }
    // A run CUDA-L1's own method also timed: its figure beside KernelScope's (cuda_l1_gap.h).
    if (latest && !m_run->task(m_row).gemm) {
      const QString l1 = cudaL1Summary(*latest);
      if (!l1.isEmpty()) claim = claim.isEmpty() ? l1 : claim + QStringLiteral(" · ") + l1;
    }
  }
  QString verdict = QString::fromStdString(shown.verdict);
  if (!verdict.isEmpty()) verdict[0] = verdict[0].toUpper();
  m_candidateVerdict->setText(verdict);
  QStringList reasons;
  for (const std::string& reason : trust.reasons) reasons << QString::fromStdString(reason);
  m_candidateVerdict->setToolTip(tr("Not the kernel's win:\n%1").arg(reasons.join('\n')));
  m_candidateVerdict->setVisible(!verdict.isEmpty());
  m_candidateTitle->setFullText(id);
  QFont font = m_candidateTitle->font();
  font.setStrikeOut(shown.struck);
  m_candidateClaim->setFont(font);
  m_candidateClaim->setFullText(claim);
  m_candidateClaim->setVisible(!claim.isEmpty());
  // The whole header in one line, for the tooltips (the verdict first).
  QStringList all;
  for (const QString& part : {verdict, id, claim})
    if (!part.isEmpty()) all << part;
  m_candidateTitle->setToolTip(all.join(QStringLiteral(" · ")));
  m_candidateClaim->setToolTip(shown.struck ? tr("Struck through: %1").arg(all.join(QStringLiteral(" · ")))
                                            : all.join(QStringLiteral(" · ")));
}

void CodeCompareView::programChanged() {
  if (m_loadingProgram || !hasProgram()) return;
  const QString text = m_program->text();
  const bool edited = text != recordedProgram();
  if (edited != m_edited) {
    m_edited = edited;
    updateCandidateTitle();
    m_revert->setEnabled(edited);
  }
  m_rediff->start();
  if (edited)
    emit programEdited(text);
  else
    emit editReverted();
}

bool CodeCompareView::hasProgram() const {
  const Candidate* c = m_row < 0 ? nullptr : m_run->candidate(m_row);
  return c && c->code;
}

QString CodeCompareView::recordedProgram() const {
  return hasProgram() ? QString::fromStdString(shownText(m_run->candidate(m_row)->code)) : QString();
}

bool CodeCompareView::isEdited() const { return m_edited; }

bool CodeCompareView::isEditing() const { return m_program->isEditable(); }

void CodeCompareView::setEditing(bool on) {
  on = on && hasProgram();
  {
    const QSignalBlocker block(m_edit);
    m_edit->setChecked(on);
  }
  if (on == m_program->isEditable()) return;
  m_program->setEditable(on);
  if (on) {
    m_candidateChoice->setCurrentIndex(0);  // edits are made in the program, not in an extracted source
    m_program->setFocus(Qt::OtherFocusReason);
  }
  emit editingChanged(on);
}

void CodeCompareView::showEdit(const QString& text, const QString& notice) {
  if (!hasProgram()) return;
  const Candidate* c = m_run->candidate(m_row);
  m_loadingProgram = true;
  m_program->showText(text, editorLanguage(c->language));
  m_loadingProgram = false;
  markFlags(m_program);
  m_edited = text != recordedProgram();
  m_editNotice->setText(notice);
  m_editNotice->setVisible(!notice.isEmpty());
  m_revert->setEnabled(m_edited);
  updateCandidateTitle();
  fillCandidateChoices(text.toStdString());
  setEditing(true);
  updateDiff();
  showRunEvidence();  // the problems of a run of this version, if it ran
}

void CodeCompareView::applyEdit(const QString& text) {
  if (!hasProgram() || text == m_program->text()) return;
  setEditing(true);
  // One undoable step, reported like typing (programChanged: autosaved as the edit, rediffed).
  m_program->beginUndoAction();
  m_program->selectAll(true);
  m_program->replaceSelectedText(text);
  m_program->endUndoAction();
  m_program->setCursorPosition(0, 0);
}

void CodeCompareView::revertEdit() {
  if (!hasProgram()) return;
  const Candidate* c = m_run->candidate(m_row);
  m_rediff->stop();
  m_loadingProgram = true;
  m_program->showText(QString::fromStdString(shownText(c->code)), editorLanguage(c->language));
  m_loadingProgram = false;
  markFlags(m_program);
  m_edited = false;
  m_editNotice->hide();
  m_revert->setEnabled(false);
  updateCandidateTitle();
  fillCandidateChoices(shownText(c->code));
  setEditing(false);
  updateDiff();
  // The edit's problems go with it (a problem entry stayed after Revert); the recorded program's
  // own, from its newest run, come back.
  if (m_open)
    showRunEvidence();
  else
    showProblems({});
  emit editReverted();
}

void CodeCompareView::showProblems(const std::vector<CodeProblem>& problems) {
  m_problems = problems;
  m_program->showProblems(problems);
  if (m_candidateStack->currentWidget() == m_source) m_source->showProblems(problems);
}

void CodeCompareView::showReference(int choice) {
  if (m_row < 0 || choice < 0) return;
  const Task& task = m_run->task(m_row);
  const int baselines = static_cast<int>(task.baselinePrograms.size());
  if (choice > baselines) {  // a parent: the search's step from it to this candidate
    const Candidate* parent =
        m_run->candidate(m_parentRows[static_cast<std::size_t>(choice - baselines - 1)]);
    m_referenceTitle->setFullText(
        tr("%1 · parent %2").arg(QString::fromStdString(task.key()), QString::fromStdString(parent->id)));
    m_reference->showText(QString::fromStdString(shownText(parent->code)), editorLanguage(parent->language));
    updateDiff();
    return;
  }
  m_referenceTitle->setFullText(QString::fromStdString(taskTitle(task)));
  const std::string& text =
      choice == 0 ? task.referenceCode : task.baselinePrograms[static_cast<std::size_t>(choice - 1)].second;
  m_reference->showText(QString::fromStdString(text), editorLanguage(task.referenceLanguage));
  updateDiff();
}

void CodeCompareView::showCandidateView(int choice) {
  const Candidate* c = m_row < 0 ? nullptr : m_run->candidate(m_row);
  if (!c || !c->code || choice < 0) return;
  if (choice == 0) {
    m_candidateStack->setCurrentWidget(m_program);
    m_sync->setEnabled(true);
    updateDiff();
    return;
  }
  const EmbeddedSource& s = m_sources[static_cast<std::size_t>(choice - 1)];
  std::vector<int> programLines;
  const int lineCount = static_cast<int>(std::count(s.text.begin(), s.text.end(), '\n')) + 1;
  for (int line = 1; line <= lineCount; ++line) programLines.push_back(s.pythonLine(line));
  m_source->showText(QString::fromStdString(s.text), CodeEditor::Language::Cpp, std::move(programLines));
  markFlags(m_source);
  m_source->showProblems(m_problems);
  m_candidateStack->setCurrentWidget(m_source);
  m_sync->setEnabled(false);
  QString note =
      tr("Showing <b>%1</b>, extracted from the program").arg(QString::fromStdString(s.name).toHtmlEscaped());
  if (!s.module.empty())
    note += tr(" (load_inline module <code>%1</code>)").arg(QString::fromStdString(s.module));
  note += tr(". Line numbers are the program's lines; diff markers compare whole programs (choose Program).");
  m_note->setText(note);
}

void CodeCompareView::updateDiff() {
  const Candidate* c = m_row < 0 ? nullptr : m_run->candidate(m_row);
  if (!c || !c->code) {
    m_diff = LineDiff();
    m_reference->clearDiff();
    m_stats->clear();
    m_note->clear();
    return;
  }
  const std::string reference = m_reference->text().toStdString();
  const std::string program = m_program->text().toStdString();
  m_diff = LineDiff::compute(reference, program);
  if (m_edited) fillCandidateChoices(program);  // the sources the edited program embeds
  m_reference->showDiff(m_diff.left());
  m_program->showDiff(m_diff.right());
  m_stats->setText(
      m_diff.identical()
          ? tr("identical")
          : tr("<span style='color:#1a7f37'>+%1</span> <span style='color:#cf222e'>−%2</span> lines")
                .arg(m_diff.insertions())
                .arg(m_diff.deletions()));
  if (m_candidateStack->currentWidget() == m_program)
    m_note->setText(tr("Green: added in the candidate · red: removed from the reference · amber: changed"));
  syncFrom(m_reference, m_program, true);
}

void CodeCompareView::observe(const OpenRun* open) {
  m_open = open;
  m_gemm->observe(open);
  connect(open, &OpenRun::currentChanged, this, [this, open](int row) {
    showRow(open->run(), row);
    showRunEvidence();
  });
  connect(open, &OpenRun::flagsChanged, this, [this, open] { refreshFlags(open->run()); });
  connect(open, &OpenRun::historyChanged, this, &CodeCompareView::showRunEvidence);
  connect(open, &OpenRun::seriesChanged, this, &CodeCompareView::updateCandidateTitle);
  connect(open, &OpenRun::runAdded, this, [this](int row) {
    if (row == m_row) showRunEvidence();
  });
}

void CodeCompareView::showRunEvidence() {
  if (!m_open) return;
  updateCandidateTitle();  // a re-run's verdict (its probes, a fallback) joins the trust rule's
  const MeasuredHistory* history = m_open->history().get();
  setRuntimeFlags(runtimeEvidence(history, m_row).flags);
  const std::string program = hasProgram() ? candidateProgram().toStdString() : std::string();
  const runs::MeasuredRun* run =
      hasProgram() ? history->latestOfCode(m_row, hash::codeHash(program)) : nullptr;
  showProblems(run ? candidateProblems(*run, program) : std::vector<CodeProblem>{});
}

void CodeCompareView::refreshFlags(std::shared_ptr<const LoadedRun> flagged) {
  m_run = std::move(flagged);
  updateCandidateTitle();  // a static hack flag speaks against the claim
  const Candidate* c = m_row < 0 ? nullptr : m_run->candidate(m_row);
  if (!c || !c->code) return;
  markFlags(m_program);
  if (m_candidateStack->currentWidget() == m_source) markFlags(m_source);
}

void CodeCompareView::setRuntimeFlags(std::vector<Flag> flags) {
  m_runtimeFlags = std::move(flags);
  const Candidate* c = m_row < 0 ? nullptr : m_run->candidate(m_row);
  if (!c || !c->code) return;
  markFlags(m_program);
  if (m_candidateStack->currentWidget() == m_source) markFlags(m_source);
}

void CodeCompareView::markFlags(CodeEditor* editor) {
  editor->clearFlags();
  const std::vector<Flag>& runtime = m_runtimeFlags;
  for (const std::vector<Flag>* flags : {&m_run->flags(m_row), &runtime})
    for (const Flag& f : *flags)
      for (int line : f.lines) editor->markFlag(editor->lineNumbered(line), f.severity);
}

void CodeCompareView::syncFrom(CodeEditor* from, CodeEditor* to, bool fromLeft) {
  const int line = from->firstVisibleDocumentLine();
  int& echo = fromLeft ? m_echoLeft : m_echoRight;
  const bool isEcho = echo == line;
  echo = -1;
  if (isEcho || !m_sync->isChecked() || m_candidateStack->currentWidget() != m_program || m_row < 0) return;
  const int before = to->firstVisibleDocumentLine();
  to->scrollToDocumentLine(fromLeft ? m_diff.leftToRight(line) : m_diff.rightToLeft(line));
  const int after = to->firstVisibleDocumentLine();
  if (after != before) (fromLeft ? m_echoRight : m_echoLeft) = after;
}

QString CodeCompareView::candidateProgram() const { return m_program->text(); }

bool CodeCompareView::isSyncScrolling() const { return m_sync->isChecked(); }

void CodeCompareView::setSyncScrolling(bool on) { m_sync->setChecked(on); }

void CodeCompareView::goToCandidateLine(int line) {
  const Candidate* c = m_row < 0 ? nullptr : m_run->candidate(m_row);
  if (!c || !c->code) return;
  const int choice = m_candidateChoice->currentIndex();
  if (choice > 0) {
    const int sourceLine = m_source->lineNumbered(line);
    if (sourceLine >= 0) {
      m_source->focusLine(sourceLine);
      m_source->setFocus(Qt::OtherFocusReason);
      return;
    }
    m_candidateChoice->setCurrentIndex(0);
  }
  m_program->focusLine(line - 1);
  m_program->setFocus(Qt::OtherFocusReason);
}

QByteArray CodeCompareView::saveState() const {
  QByteArray state;
  QDataStream out(&state, QIODevice::WriteOnly);
  out << kCompareStateVersion << m_splitter->saveState() << m_sync->isChecked();
  return state;
}

void CodeCompareView::restoreState(const QByteArray& state) {
  QDataStream in(state);
  quint32 version = 0;
  QByteArray splitter;
  bool sync = true;
  in >> version >> splitter >> sync;
  if (in.status() != QDataStream::Ok || version != kCompareStateVersion) return;
  m_splitter->restoreState(splitter);
  m_sync->setChecked(sync);
}

}  // namespace ks
