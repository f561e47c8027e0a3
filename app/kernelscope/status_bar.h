#pragma once
// The window's status bar: the progress of an open and its Cancel (shown once the open has taken
// RunLoader::kShowProgressAfterMs), the re-runs' queue progress and Cancel Runs, the load-issue count (a link
// to the pane) and the task counts. It follows the RunLoader and the RunController itself; the window gives
// it the counts (showCounts).
#include <QStatusBar>

class QLabel;
class QProgressBar;
class QPushButton;

namespace ks {

class RunController;
class RunLoader;

class StatusBar : public QStatusBar {
  Q_OBJECT

 public:
  StatusBar(RunLoader* loader, RunController* runs, QWidget* parent = nullptr);

  void setLoading(bool visible);  // the open's progress bar and its Cancel
  void showCounts(const QString& summary, int issues);

 signals:
  void issuesClicked();
  void runsActive(bool active);  // a re-run is in flight or queued: Cancel Runs applies

 private:
  QLabel* m_counts;
  QLabel* m_issueCount;
  QProgressBar* m_progress;
  QPushButton* m_cancel;
  QProgressBar* m_runProgress;
  QPushButton* m_runCancel;
};

}  // namespace ks
