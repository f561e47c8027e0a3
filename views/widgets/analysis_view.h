#pragma once
// The candidate's performance analysis, as the model wrote it (markdown), followed by the measurements the
// file records. When the file records no analysis it says so plainly and shows what KernelScope reads from
// the code instead (ChangeSummary). When the trust rule speaks against the row (speedup_trust.h: a caught
// hack, a fallback) its verdict comes first, before the model's claims, and the recorded numbers are shown
// by the rule (claimDisplay: after the verdict, struck through for a hack).
#include <QTextBrowser>
#include <memory>

namespace ks {

class LoadedRun;
class MeasuredHistory;
class OpenRun;

class AnalysisView : public QTextBrowser {
  Q_OBJECT

 public:
  explicit AnalysisView(QWidget* parent = nullptr);

  // Follows `open` from now on: its run, flags, history and current row (docs/architecture.md).
  void observe(const OpenRun* open);
  // row < 0: nothing selected. `history` (may be null): the re-runs whose verdicts the trust rule reads.
  void showRow(std::shared_ptr<const LoadedRun> run, int row,
               std::shared_ptr<const MeasuredHistory> history = nullptr);
  QString markdownShown() const { return m_markdown; }

 private:
  void markVerdict();  // colours the verdict's quote

  std::shared_ptr<const LoadedRun> m_run;
  int m_row = -1;
  QString m_markdown;
};

}  // namespace ks
