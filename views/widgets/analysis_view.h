#pragma once
// The candidate's performance analysis, as the model wrote it (markdown), followed by the measurements the
// file records. When the file records no analysis it says so plainly and shows what KernelScope reads from
// the code instead (ChangeSummary).
#include <QTextBrowser>
#include <memory>

namespace ks {

class LoadedRun;
class OpenRun;

class AnalysisView : public QTextBrowser {
  Q_OBJECT

 public:
  explicit AnalysisView(QWidget* parent = nullptr);

  // Follows `open` from now on: its run, flags, history and current row (docs/architecture.md).
  void observe(const OpenRun* open);
  void showRow(std::shared_ptr<const LoadedRun> run, int row);  // row < 0: nothing selected
  QString markdownShown() const { return m_markdown; }

 private:
  std::shared_ptr<const LoadedRun> m_run;
  QString m_markdown;
};

}  // namespace ks
