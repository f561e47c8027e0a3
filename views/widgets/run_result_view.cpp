#include "views/widgets/run_result_view.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/model/control_characters.h"
#include "core/runs/failed_build.h"
#include "core/runs/fallback_note.h"
#include "views/logic/code_problems.h"
#include "views/logic/counted.h"
#include "views/logic/measured_format.h"
#include "views/logic/speedup_format.h"

namespace ks {
namespace {

// What the runner reported (a candidate's messages, stderr and traceback among it) as HTML, with control
// and bidirectional characters written out (core/model/control_characters.h), as the CLI shows them.
QString html(const std::string& text) {
  return QString::fromStdString(escapeControlCharacters(text)).toHtmlEscaped();
}

QString number(double v, int digits = 3) {
  return std::isfinite(v) ? QString::number(v, 'g', digits) : QStringLiteral("—");
}

// A table row. Its cells keep their words on one line (the details pane is narrow beside the Measurements
// table, and Qt's tables broke "severity" into "sev/erit" there): a table wider than the pane scrolls
// sideways. Cells from `wrapFrom` on hold sentences and wrap at their spaces.
QString row(const QStringList& cells, bool header = false, int wrapFrom = -1) {
  const QString tag = header ? QStringLiteral("th") : QStringLiteral("td");
  QString out = QStringLiteral("<tr>");
  for (int i = 0; i < cells.size(); ++i)
    out +=
        QStringLiteral("<%1%2>%3</%1>")
            .arg(tag,
                 wrapFrom >= 0 && i >= wrapFrom ? QString() : QStringLiteral(" style='white-space: nowrap'"),
                 cells[i]);
  return out + QStringLiteral("</tr>");
}

QString table(const QString& rows) {
  return QStringLiteral(
             "<table cellspacing='0' cellpadding='3' border='1' style='border-collapse: collapse; "
             "border-color: #d0d7de'>%1</table>")
      .arg(rows);
}

QString percent(double fraction) {
  return std::isfinite(fraction) ? QStringLiteral("%1%").arg(fraction * 100, 0, 'f', 1) : QStringLiteral("—");
}

QString environmentHtml(const protocol::Environment& e) {
  QStringList parts;
  parts << html(e.deviceName.empty() ? e.device : e.deviceName);
  if (!e.driver.empty()) parts << QObject::tr("driver %1").arg(html(e.driver));
  if (!e.cuda.empty()) parts << QObject::tr("CUDA %1").arg(html(e.cuda));
  if (!e.torch.empty()) parts << QObject::tr("torch %1").arg(html(e.torch));
  if (!e.python.empty())
    parts << (e.pythonLink == "shared"
                  ? QObject::tr("Python %1 on the shared libpython (Python-bound calls slower than in python3)")
                        .arg(html(e.python))
                  : QObject::tr("Python %1").arg(html(e.python)));
  if (e.cpuThreads > 0)
    parts << counted(e.cpuThreads, QObject::tr("torch thread"), QObject::tr("torch threads"));
  if (e.clocks.sm && e.clocks.smMax)
    parts << QObject::tr("SM clock %1 of %2 MHz").arg(*e.clocks.sm).arg(*e.clocks.smMax);
  if (!e.hostname.empty()) parts << QObject::tr("host %1").arg(html(e.hostname));
  return parts.join(QStringLiteral(" · "));
}

QString correctnessHtml(const protocol::Correctness& c) {
  const bool messages = std::any_of(c.seeds.begin(), c.seeds.end(),
                                    [](const protocol::SeedCheck& s) { return !s.message.empty(); });
  QStringList header{QObject::tr("seed"), QObject::tr("ok"), QObject::tr("max abs err"),
                     QObject::tr("max rel err"), QObject::tr("atol / rtol")};
  if (messages) header << QObject::tr("why not");
  QString rows = row(header, true);
  for (const auto& s : c.seeds) {
    QStringList cells{QString::number(s.seed), s.passed ? QObject::tr("yes") : QObject::tr("<b>no</b>"),
                      number(s.maxAbsErr), number(s.maxRelErr),
                      QStringLiteral("%1 / %2").arg(number(s.atol), number(s.rtol))};
    if (messages) cells << html(s.message);
    rows += row(cells, false, 5);  // "why not" is a sentence
  }
  QString out = QObject::tr("<h4>Correctness</h4>") + table(rows);
  if (c.inputsMutated) out += QObject::tr("<p><b>The candidate changed an input it was given.</b></p>");
  if (!c.poison.note.empty()) out += QObject::tr("<p>Memory poisoning: %1</p>").arg(html(c.poison.note));
  return out;
}

QString timingHtml(const protocol::EvaluateResult& r) {
  if (!r.timing)
    return QObject::tr("<h4>Timing</h4><p>%1</p>")
        .arg(html(r.timingNote.empty() ? "not timed" : r.timingNote));
  const auto& t = *r.timing;
  const bool profiled = t.reference.busy() || t.candidate.busy();
  QStringList header{
      QString(),          QObject::tr("median"), QObject::tr("min"),         QObject::tr("max"),
      QObject::tr("IQR"), QObject::tr("CV"),     QObject::tr("host median"), QObject::tr("clock gap")};
  if (profiled) header << QObject::tr("GPU busy");
  QString rows = row(header, true);
  // A high CV with a steady median is a few slow trials: say which, so a person can tell one outlier from a
  // slow stretch (older results carry no trial list).
  QString slow, hostBound;
  for (const auto& [name, s] :
       {std::pair{QObject::tr("reference"), t.reference}, {QObject::tr("candidate"), t.candidate}}) {
    QStringList cells{name,
                      number(s.medianMs, 4),
                      number(s.minMs, 4),
                      s.trialsMs.empty() && s.maxMs == 0 ? QStringLiteral("—") : number(s.maxMs, 4),
                      number(s.iqrMs),
                      percent(s.cv),
                      number(s.hostMedianMs, 4),
                      number(s.clockGapMs)};
    if (profiled) cells << (s.busy() ? percent(*s.busy()) : QStringLiteral("—"));
    rows += row(cells);
    if (s.hostBound())
      hostBound +=
          QObject::tr(
              "<p>The %1 is host-bound: its kernels kept the GPU busy %2 of its median call (%3 of "
              "%4 ms in the profiled call); the rest is the CPU launching work, so this speedup moves "
              "with the CPU's speed and load, from run to run and machine to machine, by more than "
              "the interval says.</p>")
              .arg(name, percent(*s.busy()), number(*s.kernelMs, 4), number(s.medianMs, 4));
    QStringList at;
    for (std::size_t i = 0; i < s.trialsMs.size(); ++i)
      if (s.trialsMs[i] > 2 * s.medianMs)
        at << QObject::tr("%1 (%2 ms)").arg(i + 1).arg(number(s.trialsMs[i], 4));
    if (!at.isEmpty())
      slow += QObject::tr("<p>%1: %2 of %3 trials took over twice the median: trial %4.</p>")
                  .arg(name)
                  .arg(at.size())
                  .arg(s.trialsMs.size())
                  .arg(at.join(QStringLiteral(", ")));
  }
  const QString interval =
      t.speedupCi95 ? QObject::tr("; 95% interval of the speedup over these trials %1 to %2")
                          .arg(formatSpeedup(t.speedupCi95->low), formatSpeedup(t.speedupCi95->high))
                    : QString();
  const QString pinned = !t.pinnedCpu ? QString()
                         : t.cpuPin == protocol::CpuPinScope::Process
                             ? QObject::tr("; every runner thread pinned to CPU %1").arg(*t.pinnedCpu)
                             : QObject::tr("; the timing thread pinned to CPU %1").arg(*t.pinnedCpu);
  return QObject::tr(
             "<h4>Timing (ms)</h4><p>%1 trials after %2 warm-up calls, %3 clock, order seed %4%7; on the "
             "host clock the speedup is %5%6</p>")
             .arg(t.trials)
             .arg(t.warmup)
             .arg(html(t.clock))
             .arg(t.orderSeed)
             .arg(formatSpeedup(t.hostSpeedup), interval, pinned) +
         table(rows) + slow + hostBound +
         (protocol::cudnnAutotuned(r.torchSettingsChanged)
              ? QObject::tr(
                    "<p>A program turned on cudnn.benchmark: cuDNN picked its algorithms by timing them "
                    "in this runner and may pick others in the next, so this speedup can move between "
                    "runs by more than the interval says.</p>")
              : QString());
}

QString kernelsHtml(const protocol::EvaluateResult& r) {
  QString out = QObject::tr("<h4>Kernels</h4>");
  if (r.kernels.empty())
    return out + QStringLiteral("<p>%1</p>").arg(html(r.kernelsNote.empty() ? "none listed" : r.kernelsNote));
  QString rows = row({QObject::tr("model"), QObject::tr("kernel"), QObject::tr("stream"),
                      QObject::tr("calls"), QObject::tr("total µs")},
                     true);
  for (const auto& k : r.kernels)
    rows += row({html(k.model), html(k.name), QString::number(k.stream), QString::number(k.calls),
                 number(k.totalUs, 4)});
  return out + table(rows);
}

// One paragraph per flag — "hack · cached-output · probe repeat-calls · lines 12, 14", then what the probe
// measured — rather than a table: the details pane is narrow beside the Measurements table, and a
// five-column table there broke its words mid-letter ("sev/erit").
QString runtimeFlagsHtml(const protocol::EvaluateResult& r) {
  if (r.runtimeFlags.empty()) return {};
  QString out = QObject::tr("<h4>Runtime flags</h4>");
  for (const auto& f : r.runtimeFlags) {
    QStringList lines;
    for (int line : f.lines) lines << QString::number(line);
    QStringList head{
        f.severity == "hack" ? QStringLiteral("<b style='color: #cf222e'>hack</b>") : html(f.severity),
        QStringLiteral("<b>%1</b>").arg(html(f.family))};
    if (!f.probe.empty()) head << QObject::tr("probe %1").arg(html(f.probe));
    if (!lines.isEmpty())
      head << (lines.size() == 1 ? QObject::tr("line %1") : QObject::tr("lines %1"))
                  .arg(lines.join(QStringLiteral(", ")));
    out += QStringLiteral("<p>%1<br>%2</p>").arg(head.join(QStringLiteral(" · ")), html(f.message));
  }
  return out;
}

QString resultHtml(const runs::MeasuredRun& run, const protocol::EvaluateResult& r) {
  QString out;
  // First, before any speedup: whose number it is (core/runs/fallback_note.h).
  if (const std::string note = runs::fallbackNote(r.build); !note.empty())
    out += QStringLiteral(
               "<p style='background-color: #fff8c5; color: #6a4800; padding: 4px'><b>%1</b> Not the "
               "kernel's: do not read it as a win.</p>")
               .arg(html(note));
  // A caught hack or a fallback says so first, the number struck through (speedup_trust.h).
  out += QObject::tr("<h3>%1</h3>").arg(runHeadlineHtml(run));
  out += QObject::tr("<p>%1</p>").arg(environmentHtml(r.environment));
  out += runtimeFlagsHtml(r) + correctnessHtml(r.correctness) + timingHtml(r) + kernelsHtml(r);
  QString build = QObject::tr("%1 s%2")
                      .arg(number(r.build.seconds))
                      .arg(r.build.cacheHit ? QObject::tr(", from the cache") : QString());
  for (const auto& e : r.build.extensions)
    build += QStringLiteral("<br>%1 (%2): %3")
                 .arg(html(e.name), html(e.program),
                      e.ok ? QObject::tr("built") : QObject::tr("<b>failed</b>: ") + html(e.error));
  out += QObject::tr("<h4>Build</h4><p>%1</p>").arg(build);
  if (!r.torchSettingsChanged.empty()) {
    QStringList changed;
    for (const auto& s : r.torchSettingsChanged) changed << html(s);
    out += QObject::tr("<h4>Torch settings the programs changed</h4><p>%1</p>").arg(changed.join("<br>"));
  }
  return out;
}

QString errorTitle(protocol::ErrorKind kind) {
  switch (kind) {
    case protocol::ErrorKind::Protocol:
      return QObject::tr("Protocol error");
    case protocol::ErrorKind::Load:
      return QObject::tr("Load error");
    case protocol::ErrorKind::Build:
      return QObject::tr("Build error");
    case protocol::ErrorKind::Runtime:
      return QObject::tr("Runtime error");
    case protocol::ErrorKind::Timeout:
      return QObject::tr("Timed out");
    case protocol::ErrorKind::Crash:
      return QObject::tr("The runner crashed");
    case protocol::ErrorKind::Memory:
      return QObject::tr("Out of memory");
    case protocol::ErrorKind::Cancelled:
      return QObject::tr("Cancelled");
    case protocol::ErrorKind::Tampering:
      return QObject::tr("Tampering: the result was not accepted");
    case protocol::ErrorKind::Processes:
      return QObject::tr("Too many processes");
  }
  return {};
}

QString errorHtml(const protocol::ErrorInfo& e) {
  const bool phase = !e.phase.empty() && e.phase != protocol::errorKindName(e.kind);
  QString out =
      QStringLiteral("<h3>%1%2</h3>")
          .arg(errorTitle(e.kind), phase ? QObject::tr(" during %1").arg(html(e.phase)) : QString());
  out += QStringLiteral("<p style='white-space: pre-wrap'>%1</p>").arg(html(e.message));
  if (!e.program.empty())
    out += QObject::tr("<p>In the %1 program%2.</p>")
               .arg(html(e.program), e.line ? QObject::tr(", line %1").arg(*e.line) : QString());
  if (e.signal) out += QObject::tr("<p>The runner was killed by signal %1.</p>").arg(*e.signal);
  if (e.exitStatus) out += QObject::tr("<p>The runner exited with status %1.</p>").arg(*e.exitStatus);
  if (!e.traceback.empty()) {
    QString frames;
    for (const auto& f : e.traceback)
      frames += QStringLiteral("%1:%2 in %3\n    %4\n")
                    .arg(html(f.file))
                    .arg(f.line)
                    .arg(html(f.function), html(f.text));
    out += QObject::tr("<h4>Traceback (innermost last)</h4><pre>%1</pre>").arg(frames);
  }
  if (!e.stderrTail.empty())
    out += QObject::tr("<h4>Last lines of the runner's stderr</h4><pre>%1</pre>").arg(html(e.stderrTail));
  return out;
}

}  // namespace

RunResultView::RunResultView(QWidget* parent)
    : QWidget(parent),
      m_causeBar(new QWidget(this)),
      m_cause(new QLabel(m_causeBar)),
      m_repair(new QPushButton(tr("&Repair…"), m_causeBar)),
      m_text(new QTextBrowser(this)),
      m_problemsTitle(
          new QLabel(tr("Problems on the candidate's lines (double-click shows the line)"), this)),
      m_problems(new QListWidget(this)) {
  m_text->setObjectName(QStringLiteral("runResultText"));
  m_text->document()->setDocumentMargin(8);
  m_problems->setObjectName(QStringLiteral("runProblems"));
  m_problems->setAlternatingRowColors(true);
  m_problems->setWordWrap(true);
  auto* problemsBox = new QWidget(this);
  auto* problemsLayout = new QVBoxLayout(problemsBox);
  problemsLayout->setContentsMargins(0, 4, 0, 0);
  problemsLayout->setSpacing(2);
  problemsLayout->addWidget(m_problemsTitle);
  problemsLayout->addWidget(m_problems, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(m_text);
  split->addWidget(problemsBox);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  m_causeBar->setObjectName(QStringLiteral("buildCauseBar"));
  m_causeBar->setAttribute(Qt::WA_StyledBackground);
  m_causeBar->setStyleSheet(QStringLiteral("#buildCauseBar { background-color: #fff1e5; }"));
  m_cause->setObjectName(QStringLiteral("buildCause"));
  m_cause->setWordWrap(true);
  m_cause->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_repair->setObjectName(QStringLiteral("repairButton"));
  m_repair->setToolTip(
      tr("Show the mechanical repair of this build failure as a diff (Ctrl+Shift+R); "
         "applying it makes an edited copy of the candidate, the recorded program stays"));
  auto* causeLayout = new QHBoxLayout(m_causeBar);
  causeLayout->setContentsMargins(6, 4, 6, 4);
  causeLayout->addWidget(m_cause, 1);
  causeLayout->addWidget(m_repair, 0, Qt::AlignTop);
  connect(m_repair, &QPushButton::clicked, this, &RunResultView::repairRequested);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(m_causeBar);
  layout->addWidget(split);
  connect(m_problems, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    const int line = item->data(Qt::UserRole).toInt();
    if (line > 0) emit lineRequested(line);
  });
  showRun(nullptr, false);
}

void RunResultView::showRun(const runs::MeasuredRun* run, bool recordedProgram, const QString& note,
                            const QString& beside) {
  m_problems->clear();
  const auto failed = run ? runs::failedBuild(*run) : std::nullopt;
  m_causeBar->setVisible(failed.has_value());
  m_cause->setText(failed ? buildCauseText(*run) : QString());
  m_repair->setVisible(failed && repair::causeIsRepairable(failed->cause));
  if (!run) {
    m_text->setHtml(QStringLiteral("<p style='color: #57606a'>%1</p>").arg(note.toHtmlEscaped()));
    m_problemsTitle->hide();
    m_problems->hide();
    return;
  }
  QString body;
  if (!beside.isEmpty())
    body += QStringLiteral("<p style='background-color: #ddf4ff; padding: 4px'>%1<br>%2</p>")
                .arg(beside, html(repairText(*run).toStdString()));
  if (run->result)
    body += resultHtml(*run, *run->result);
  else if (run->error)
    body += errorHtml(*run->error);
  else
    body += tr("<h3>%1</h3><p>The stored result cannot be read: %2</p>")
                .arg(outcomeText(*run), html(run->unreadable));
  body += tr("<p style='color: #57606a'>%1 · %2 · %3, recorded %4 by %5%6</p>")
              .arg(recordedProgram ? tr("the recorded program")
                   : run->repair   ? tr("the program repaired")
                                   : tr("an edited version"),
                   html(run->row.codeHash.substr(0, 19)) + QStringLiteral("…"), deviceText(*run),
                   localTime(run->row.recordedAt), html(run->row.origin),
                   run->row.id > 0 ? tr(" (results row %1)").arg(run->row.id) : tr(" (<b>not recorded</b>)"));
  m_text->setHtml(body);

  for (const CodeProblem& p : candidateProblems(*run)) {
    auto* item = new QListWidgetItem(p.line > 0 ? tr("line %1: %2").arg(p.line).arg(p.message) : p.message,
                                     m_problems);
    item->setData(Qt::UserRole, p.line);
    item->setForeground(p.severity == CodeProblem::Severity::Error     ? QColor(0xcf, 0x22, 0x2e)
                        : p.severity == CodeProblem::Severity::Warning ? QColor(0x9a, 0x67, 0x00)
                                                                       : QColor(0x3d, 0x44, 0x4d));
    if (p.line > 0) item->setToolTip(tr("Double-click to show line %1 of the candidate").arg(p.line));
  }
  m_problemsTitle->setVisible(m_problems->count() > 0);
  m_problems->setVisible(m_problems->count() > 0);
}

QString RunResultView::plainText() const { return m_text->toPlainText(); }

QString RunResultView::causeText() const { return m_causeBar->isHidden() ? QString() : m_cause->text(); }

}  // namespace ks
