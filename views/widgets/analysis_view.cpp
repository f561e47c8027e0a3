#include "views/widgets/analysis_view.h"

#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <algorithm>
#include <cctype>

#include "core/runs/outcome.h"
#include "views/logic/change_summary.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/logic/speedup_format.h"
#include "views/logic/speedup_trust.h"

namespace ks {
namespace {

// Plain text inside markdown: backslash-escape what markdown would read as markup.
QString escaped(const std::string& text) {
  QString out;
  for (const QChar ch : QString::fromStdString(text)) {
    if (QStringLiteral("\\`*_{}[]<>()#+-.!|~").contains(ch)) out += QLatin1Char('\\');
    out += ch;
  }
  return out;
}

QString codeList(const QStringList& items) {
  QStringList quoted;
  for (const QString& item : items) quoted << QStringLiteral("`%1`").arg(item);
  return quoted.join(QStringLiteral(", "));
}

QString number(const std::optional<double>& value) {
  return value ? QString::number(*value, 'g', 4) : QStringLiteral("—");
}

QString summaryMarkdown(const Task& task, const Candidate& candidate) {
  const ChangeSummary s = ChangeSummary::compute(task.referenceCode, *candidate.code);
  const bool noReference = QString::fromStdString(task.referenceCode).trimmed().isEmpty();
  QString md = QObject::tr("#### What changed\n\n");
  // Without a reference (a lone .cu) there is nothing it changed: say so instead of "+306/−0".
  if (noReference) {
    md += QObject::tr("- **No reference program** to compare with: %1 lines of its own\n").arg(s.linesAdded);
    md += s.kernels.isEmpty() ? QObject::tr("- **No `__global__` kernel** defined\n")
                              : QObject::tr("- **Kernels defined:** %1\n").arg(codeList(s.kernels));
    return md;
  }
  md += QObject::tr("- **+%1 / −%2 lines** against the reference program\n")
            .arg(s.linesAdded)
            .arg(s.linesRemoved);
  md += s.kernels.isEmpty() ? QObject::tr("- **No `__global__` kernel** defined\n")
                            : QObject::tr("- **Kernels defined:** %1\n").arg(codeList(s.kernels));
  if (!s.modules.isEmpty()) md += QObject::tr("- **load_inline modules:** %1\n").arg(codeList(s.modules));
  if (!s.torchOpsRemoved.isEmpty())
    md += QObject::tr("- **Torch calls removed:** %1\n").arg(codeList(s.torchOpsRemoved));
  if (!s.torchOpsAdded.isEmpty())
    md += QObject::tr("- **Torch calls added:** %1\n").arg(codeList(s.torchOpsAdded));
  if (s.torchOpsRemoved.isEmpty() && s.torchOpsAdded.isEmpty())
    md += QObject::tr("- **Same torch calls** as the reference\n");
  return md;
}

// A recorded number as the trust rule shows it (claimDisplay): "caught hack · ~~368.2×~~".
QString claimMarkdown(const QString& number, const ClaimDisplay& shown) {
  if (shown.verdict.empty()) return number;
  return QStringLiteral("%1 · %2").arg(escaped(shown.verdict),
                                       shown.struck ? QStringLiteral("~~%1~~").arg(number) : number);
}

// The verdict, before anything the model claims (the report's red box, in markdown): "Caught hack: the
// recorded speedup is not the kernel's win." and the rule's reasons.
QString verdictMarkdown(const SpeedupTrust& trust) {
  std::string first = trustHeadline(trust);
  if (first.empty()) return {};
  first[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(first[0])));
  QString md =
      QObject::tr("> **%1: the recorded speedup is not the kernel's win.**\n>\n").arg(escaped(first));
  // One quoted paragraph per reason (a list would leave the quote in Qt's document).
  for (const std::string& reason : trust.reasons) md += QStringLiteral("> %1\n>\n").arg(escaped(reason));
  return md + QStringLiteral("\n");
}

QString measurementsMarkdown(const Candidate& candidate, const ClaimDisplay& shown) {
  if (candidate.measurements.empty()) return QObject::tr("*No measurements recorded.*\n");
  const auto& ms = candidate.measurements;
  const bool times =
      std::any_of(ms.begin(), ms.end(), [](const Measurement& m) { return m.baselineMs || m.candidateMs; });
  const bool oneDevice =
      std::all_of(ms.begin(), ms.end(), [&](const Measurement& m) { return m.device == ms[0].device; });
  const bool oneOrigin =
      std::all_of(ms.begin(), ms.end(), [&](const Measurement& m) { return m.origin == ms[0].origin; });
  QString md = QObject::tr("| Baseline | Speedup |");
  QString rule = QStringLiteral("|---|--:|");
  if (times) {
    md += QObject::tr(" Baseline ms | Candidate ms |");
    rule += QStringLiteral("--:|--:|");
  }
  if (!oneDevice) {
    md += QObject::tr(" Device |");
    rule += QStringLiteral("---|");
  }
  if (!oneOrigin) {
    md += QObject::tr(" Origin |");
    rule += QStringLiteral("---|");
  }
  md += '\n' + rule + '\n';
  QStringList failures;  // a failed run's verdict the file records (run format "outcome", "error")
  for (const Measurement& m : ms) {
    const runs::Outcome outcome = runs::outcomeOf(m);
    const QString verdict = outcome == runs::Outcome::Incorrect ? QObject::tr("✗ incorrect")
                            : outcome == runs::Outcome::Error   ? QObject::tr("✗ error")
                                                                : QString();
    if (!verdict.isEmpty() && !m.error.empty())
      failures << QStringLiteral("%1: %2").arg(verdict, escaped(m.error));
    md += QStringLiteral("| %1 | %2 |")
              .arg(escaped(seriesLabel({m.baseline, m.mode})),
                   !verdict.isEmpty() ? verdict
                   : m.speedup        ? claimMarkdown(formatSpeedup(*m.speedup), shown)
                                      : QStringLiteral("—"));
    if (times) md += QStringLiteral(" %1 | %2 |").arg(number(m.baselineMs), number(m.candidateMs));
    if (!oneDevice)
      md += QStringLiteral(" %1 |").arg(m.device.empty() ? QStringLiteral("—") : escaped(m.device));
    if (!oneOrigin) md += QStringLiteral(" %1 |").arg(escaped(m.origin));
    md += '\n';
  }
  QStringList where;
  if (oneDevice && !ms[0].device.empty()) where << QObject::tr("on %1").arg(escaped(ms[0].device));
  if (oneOrigin)
    where << (ms[0].origin == "recorded" ? QObject::tr("claims read from the file, not measured here")
                                         : QObject::tr("origin: %1").arg(escaped(ms[0].origin)));
  if (!where.isEmpty()) md += QStringLiteral("\n*%1*\n").arg(where.join(QStringLiteral(" · ")));
  for (const QString& failure : failures) md += QStringLiteral("\n%1\n").arg(failure);
  return md;
}

}  // namespace

AnalysisView::AnalysisView(QWidget* parent) : QTextBrowser(parent) {
  setObjectName(QStringLiteral("analysisView"));
  setOpenExternalLinks(true);
  document()->setDocumentMargin(12);
  showRow(nullptr, -1);
}

void AnalysisView::observe(const OpenRun* open) {
  connect(open, &OpenRun::currentChanged, this,
          [this, open](int row) { showRow(open->run(), row, open->history()); });
  // The verdict may change with the flags (a static hack) and with a re-run of the row (its probes, a
  // fallback): shown again then.
  connect(open, &OpenRun::flagsChanged, this, [this, open] {
    if (m_row >= 0) showRow(open->run(), m_row, open->history());
  });
  connect(open, &OpenRun::historyChanged, this, [this, open] {
    if (m_row >= 0) showRow(open->run(), m_row, open->history());
  });
  connect(open, &OpenRun::runAdded, this, [this, open](int row) {
    if (row == m_row) showRow(open->run(), m_row, open->history());
  });
}

void AnalysisView::showRow(std::shared_ptr<const LoadedRun> run, int row,
                           std::shared_ptr<const MeasuredHistory> history) {
  m_run = std::move(run);
  const bool valid = m_run && row >= 0 && row < m_run->rowCount();
  m_row = valid ? row : -1;
  const Candidate* c = valid ? m_run->candidate(row) : nullptr;
  const SpeedupTrust trust = c ? speedupTrust(*m_run, history.get(), row) : SpeedupTrust{};
  if (!valid) {
    m_markdown = tr("*Select a task to read the model's analysis of its candidate.*");
  } else if (!c) {
    const Task& task = m_run->task(row);
    m_markdown = tr("### %1 %2\n\nThis task has no candidate: only its reference program is recorded.")
                     .arg(QString::fromStdString(task.key()), escaped(task.name));
  } else {
    const Task& task = m_run->task(row);
    m_markdown = tr("### %1 %2 — candidate %3\n\n")
                     .arg(QString::fromStdString(task.key()), escaped(task.name), escaped(c->id));
    m_markdown += verdictMarkdown(trust);
    if (!c->analysis.empty()) {
      m_markdown += QString::fromStdString(c->analysis.valueOrEmpty());
    } else {
      m_markdown += tr("**No analysis recorded for this candidate.**");
      if (c->code)
        m_markdown += tr(" KernelScope's reading of the code follows.\n\n") + summaryMarkdown(task, *c);
      else
        m_markdown += tr(" The file records no program for it either.\n");
    }
    m_markdown +=
        tr("\n\n---\n\n#### Recorded measurements\n\n") + measurementsMarkdown(*c, claimDisplay(trust));
  }
  // Qt's own markdown renderer (md4c: CommonMark plus GitHub tables), as QTextBrowser::setMarkdown uses,
  // called on the document to add MarkdownNoHTML: raw HTML in a file is shown as text, not interpreted.
  document()->setMarkdown(m_markdown, QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub |
                                                                      QTextDocument::MarkdownNoHTML));
  if (!trust.trusted) markVerdict();
}

void AnalysisView::markVerdict() {
  // The verdict's quote (the first one, right after the heading) in the report's red: markdown has no
  // colours, the document has.
  QTextBlock block = document()->begin();
  while (block.isValid() && block.blockFormat().intProperty(QTextFormat::BlockQuoteLevel) == 0)
    block = block.next();
  QTextCharFormat red;
  red.setForeground(QColor(0x8e, 0x1c, 0x1c));
  QTextBlockFormat box;
  box.setBackground(QColor(0xfd, 0xec, 0xea));
  for (; block.isValid() && block.blockFormat().intProperty(QTextFormat::BlockQuoteLevel) > 0;
       block = block.next()) {
    QTextCursor cursor(block);
    cursor.mergeBlockFormat(box);
    cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
    cursor.mergeCharFormat(red);
  }
}

}  // namespace ks
