#include "views/logic/measured_format.h"

#include <QDateTime>
#include <QStringList>
#include <QSysInfo>
#include <cmath>

#include "core/runs/fallback_note.h"
#include "core/runs/gemm_baseline_table.h"
#include "core/runs/cuda_l1_gap.h"
#include "core/runs/method_gap.h"
#include "views/logic/speedup_format.h"
#include "views/logic/speedup_trust.h"

namespace ks {

QString localTime(const std::string& isoUtc) {
  const QString text = QString::fromStdString(isoUtc);
  const QDateTime when = QDateTime::fromString(text, Qt::ISODateWithMs);
  return when.isValid() ? when.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : text;
}

QString deviceText(const runs::MeasuredRun& run) {
  // One rule for every row, so that no two rows name a device differently: "<name> (<kind>)". A run that
  // reported no device name (it ended in an error before, or its runner predates the name) shows "—" for it,
  // and the kind it asked for.
  const std::string kind = run.result && !run.result->device.empty() ? run.result->device : std::string();
  const bool named = !run.row.device.empty() && run.row.device != kind && run.row.device != "cpu" &&
                     run.row.device != "cuda" && run.row.device != "default";
  const std::string asked = named ? kind : (kind.empty() ? run.row.device : kind);
  QString kindText = asked == "default" || asked.empty() ? QObject::tr("the runner's default device")
                                                         : QString::fromStdString(asked);
  // A run of one runner of several, each on its own GPU, says which: "(cuda, GPU 1)".
  const QString gpu = run.gpu.empty() ? QString() : QObject::tr("GPU %1").arg(QString::fromStdString(run.gpu));
  if (!gpu.isEmpty()) kindText += QStringLiteral(", ") + gpu;
  if (!named) return QStringLiteral("— (%1)").arg(kindText);
  if (kind.empty())
    return gpu.isEmpty() ? QString::fromStdString(run.row.device)
                         : QStringLiteral("%1 (%2)").arg(QString::fromStdString(run.row.device), gpu);
  return QStringLiteral("%1 (%2)").arg(QString::fromStdString(run.row.device), kindText);
}

QString outcomeText(const runs::MeasuredRun& run) {
  if (run.row.outcome == "error")
    return QObject::tr("error: %1").arg(QString::fromStdString(run.row.errorKind));
  return QString::fromStdString(run.row.outcome);
}

bool fellBack(const runs::MeasuredRun& run) { return run.result && runs::fellBack(run.result->build); }

QString fallbackPrefix(const runs::MeasuredRun& run) {
  return fellBack(run) ? QObject::tr("PyTorch fallback's ") : QString();
}

QString speedupWithSpread(const runs::MeasuredRun& run) {
  if (!run.row.speedup) return QStringLiteral("—");
  QString text = fallbackPrefix(run) + formatSpeedup(*run.row.speedup);
  if (!run.result || !run.result->timing) return text;
  const auto& t = *run.result->timing;
  if (t.speedupCi95 && std::isfinite(t.speedupCi95->low) && std::isfinite(t.speedupCi95->high)) {
    QString low = formatSpeedup(t.speedupCi95->low), high = formatSpeedup(t.speedupCi95->high);
    low.chop(1);  // "12.500–13.750×"
    text += QStringLiteral(" [%1–%2]").arg(low, high);
  } else if (std::isfinite(t.candidate.cv)) {  // results of runners before the interval
    text += QStringLiteral(" ± %1%").arg(t.candidate.cv * 100, 0, 'f', 1);
  }
  return text;
}

namespace {

// A stored repair that does not name its kind is still a repair.
QString repairKind(const store::StoredRepair::Change& change) {
  return change.kind.empty() ? QStringLiteral("repair") : QString::fromStdString(change.kind);
}

}  // namespace

QString repairText(const runs::MeasuredRun& run) {
  if (!run.repair) return {};
  QStringList kinds;
  for (const store::StoredRepair::Change& r : run.repair->repairs) kinds << repairKind(r);
  return kinds.isEmpty() ? QObject::tr("repaired") : QObject::tr("repaired: %1").arg(kinds.join(", "));
}

QString repairLines(const runs::MeasuredRun& run) {
  if (!run.repair) return {};
  QStringList lines;
  for (const store::StoredRepair::Change& r : run.repair->repairs)
    lines << QStringLiteral("%1: %2").arg(repairKind(r), QString::fromStdString(r.what));
  const std::string& original = run.repair->originalCodeHash;
  if (!original.empty())
    lines << QObject::tr("repaired from the program %1").arg(QString::fromStdString(original));
  return lines.join('\n');
}

QString repairedBesideHtml(const runs::MeasuredRun& repaired, const runs::MeasuredRun* fallbackBefore,
                           std::optional<double> recorded) {
  if (!repaired.repair) return {};
  const QString unknown = QObject::tr("<i>none</i>");
  const QString fallback =
      fallbackBefore && fallbackBefore->row.speedup
          ? QObject::tr("<b>%1</b> (%2)")
                .arg(formatSpeedup(*fallbackBefore->row.speedup), localTime(fallbackBefore->row.recordedAt))
          : QObject::tr("<i>not timed here</i>");
  const SpeedupTrust trust = runTrust(repaired);
  QString kernel = repaired.row.speedup ? formatSpeedup(*repaired.row.speedup) : unknown;
  if (repaired.row.speedup && !trust.trusted)
    kernel = QStringLiteral("%1 <s>%2</s>").arg(QString::fromStdString(trustHeadline(trust)), kernel);
  return QObject::tr("Recorded <b>%1</b> · PyTorch fallback %2 · repaired kernel <b>%3</b>")
      .arg(recorded ? formatSpeedup(*recorded) : unknown, fallback, kernel);
}

QString trustedOutcomeText(const runs::MeasuredRun& run) {
  const std::string verdict = trustHeadline(runTrust(run));
  return verdict.empty() ? outcomeText(run)
                         : QStringLiteral("%1 · %2").arg(QString::fromStdString(verdict), outcomeText(run));
}

QString claimHtml(const QString& number, const SpeedupTrust& trust) {
  const ClaimDisplay shown = claimDisplay(trust);
  if (shown.verdict.empty()) return number.toHtmlEscaped();
  return QStringLiteral("%1 · %2").arg(
      QString::fromStdString(shown.verdict).toHtmlEscaped(),
      shown.struck ? QStringLiteral("<s>%1</s>").arg(number.toHtmlEscaped()) : number.toHtmlEscaped());
}

QString runHeadlineHtml(const runs::MeasuredRun& run) {
  const bool passed = run.result ? run.result->correctness.passed : run.row.outcome == "correct";
  const QString outcome = passed ? QObject::tr("Correct") : QObject::tr("Incorrect");
  const std::string verdict = trustHeadline(runTrust(run));
  if (verdict.empty())
    return run.row.speedup ? QObject::tr("%1 · %2 vs the reference").arg(outcome, speedupWithSpread(run))
                           : outcome;
  QString verdictText = QString::fromStdString(verdict);
  verdictText[0] = verdictText[0].toUpper();
  QString text =
      QStringLiteral("<span style='color: #cf222e'>%1</span> · %2").arg(verdictText.toHtmlEscaped(), outcome);
  if (run.row.speedup)
    text += QObject::tr(" · <s>%1</s> vs the reference — not the kernel's speedup")
                .arg(speedupWithSpread(run).toHtmlEscaped());
  return text;
}

QString gemmBaselinesHtml(const runs::MeasuredRun& run, const Candidate* recorded) {
  if (!run.result || !run.result->baselines) return {};
  const runs::GemmBaselineTable table = runs::gemmBaselineTable(*run.result->baselines, recorded ? *recorded : Candidate{});
  const std::string verdict = trustHeadline(runTrust(run));
  QString out = QObject::tr("<h4>Speedup by baseline and timing method</h4>");
  if (!verdict.empty())
    out += QStringLiteral("<p><span style='color: #cf222e'>%1</span>: not the kernel's speedups</p>")
               .arg(QString::fromStdString(verdict).toHtmlEscaped());
  if (!table.rows.empty()) {
    out += QStringLiteral("<table cellspacing='0' cellpadding='3' border='1'><tr><th>%1</th>").arg(QObject::tr("baseline"));
    for (std::size_t i = 0; i < table.methods.size(); ++i)
      out += QStringLiteral("<th>%1<br>(%2 rounds)</th>")
                 .arg(QString::fromStdString(table.methods[i]).toHtmlEscaped())
                 .arg(table.rounds[i]);
    out += QStringLiteral("</tr>");
    for (const runs::GemmBaselineRow& row : table.rows) {
      QString name = QString::fromStdString(row.baseline).toHtmlEscaped();
      if (!row.fasterOf.empty()) name += QObject::tr(" = %1").arg(QString::fromStdString(row.fasterOf).toHtmlEscaped());
      out += QStringLiteral("<tr><td>%1</td>").arg(name);
      for (const runs::GemmBaselineCell& cell : row.cells) {
        QString text = cell.measured ? QString::number(*cell.measured, 'f', 2) + QStringLiteral("×") : QStringLiteral("—");
        if (!verdict.empty() && cell.measured) text = QStringLiteral("<s>%1</s>").arg(text);
        if (cell.disagrees) text = QStringLiteral("<b>%1</b>").arg(text);
        if (cell.recorded) text += QObject::tr(" (recorded %1×)").arg(QString::number(*cell.recorded, 'f', 2));
        out += QStringLiteral("<td>%1</td>").arg(text);
      }
      out += QStringLiteral("</tr>");
    }
    out += QStringLiteral("</table>");
  }
  // Why the two methods' numbers differ, as measured; not for a run whose numbers are not the kernel's.
  if (verdict.empty())
    for (const std::string& gap : table.gaps)
      out += QStringLiteral("<p>%1</p>").arg(QString::fromStdString(gap).toHtmlEscaped());
  for (const std::string& note : table.notes)
    out += QStringLiteral("<p>%1</p>").arg(QString::fromStdString(note).toHtmlEscaped());
  return out;
}

QString methodGapSummary(const runs::MeasuredRun& run, const std::string& baseline) {
  if (!run.result || !run.result->baselines || !trustHeadline(runTrust(run)).empty()) return {};
  for (const runs::MethodGap& gap : runs::methodGaps(*run.result->baselines))
    if (gap.baseline == baseline)
      return QObject::tr("re-measured: CUDA-L2's method %1, KernelScope's %2 over %3")
          .arg(formatSpeedup(gap.seed), formatSpeedup(gap.own), QString::fromStdString(gap.baseline));
  return {};
}

QString cudaL1Html(const runs::MeasuredRun& run, const Candidate* recorded) {
  if (!run.result || !run.result->cudaL1) return {};
  const std::string verdict = trustHeadline(runTrust(run));
  const std::vector<std::string> lines = runs::cudaL1Lines(*run.result);
  QString out = QObject::tr("<h4>CUDA-L1's own method, in the same run</h4>");
  QString summary = QString::fromStdString(lines.front()).toHtmlEscaped();
  if (!verdict.empty()) {
    out += QStringLiteral("<p><span style='color: #cf222e'>%1</span>: not the kernel's speedup</p>")
               .arg(QString::fromStdString(verdict).toHtmlEscaped());
    summary = QStringLiteral("<s>%1</s>").arg(summary);
  }
  out += QStringLiteral("<p>%1</p>").arg(summary);
  if (recorded && recorded->speedup())
    out += QObject::tr("<p>Recorded in the file: %1 (CUDA-L1's claim, on the GPU the release names)</p>")
               .arg(formatSpeedup(*recorded->speedup()));
  if (verdict.empty())
    for (std::size_t i = 1; i < lines.size(); ++i)
      out += QStringLiteral("<p>%1</p>").arg(QString::fromStdString(lines[i]).toHtmlEscaped());
  return out;
}

QString cudaL1Summary(const runs::MeasuredRun& run) {
  if (!run.result || !run.result->cudaL1 || !(run.result->cudaL1->speedup > 0) ||
      !trustHeadline(runTrust(run)).empty())
    return {};
  const double seed = run.result->cudaL1->speedup;
  if (!run.result->timing) return QObject::tr("re-measured: CUDA-L1's method %1").arg(formatSpeedup(seed));
  return QObject::tr("re-measured: CUDA-L1's method %1, KernelScope's %2")
      .arg(formatSpeedup(seed), formatSpeedup(run.result->timing->speedup));
}

QString hostText(const runs::MeasuredRun& run) {
  if (!run.result || run.result->environment.hostname.empty()) return {};
  const QString host = QString::fromStdString(run.result->environment.hostname);
  return host == QSysInfo::machineHostName() ? QObject::tr("this machine") : host;
}

}  // namespace ks
