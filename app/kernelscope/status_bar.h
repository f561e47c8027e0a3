#pragma once
// The window's status bar: the progress of an open and its Cancel (shown once the open has taken
// RunLoader::kShowProgressAfterMs), the re-runs' queue progress and Cancel Runs (with several runners, one
// per GPU, what each one does beside it: runActivity), the load-issue count (a link to the pane) and the task
// counts, and a compile in progress with its Cancel. It follows the RunLoader, the RunController and the
// CompileCommand itself; the window gives it the counts (showCounts).
#include <QElapsedTimer>
#include <QStatusBar>
#include <QString>

class QLabel;
class QTimer;
class QProgressBar;
class QPushButton;

namespace ks {

class CompileCommand;
class ElidedLabel;
class RunController;
class RunLoader;

class StatusBar : public QStatusBar {
  Q_OBJECT

 public:
  StatusBar(RunLoader* loader, RunController* runs, QWidget* parent = nullptr);

  void setLoading(bool visible);  // the open's progress bar and its Cancel
  void showCounts(const QString& summary, int issues);
  // A compile (F7, or Run without a GPU) shows a busy bar while nvcc runs — what, for how long so far, the
  // last compile's time as the estimate — and a Cancel that stops nvcc.
  void followCompile(CompileCommand* compile);

 signals:
  void issuesClicked();
  void runsActive(bool active);  // a re-run is in flight or queued: Cancel Runs applies

 private:
  QLabel* m_counts;
  QLabel* m_issueCount;
  QProgressBar* m_progress;
  QPushButton* m_cancel;
  QProgressBar* m_runProgress;
  ElidedLabel* m_runActivity;  // "GPU 0 · L1/12 r2 · timing 2/3 | GPU 1 · idle": each runner's job and phase
  QPushButton* m_runCancel;
  QProgressBar* m_compileProgress = nullptr;
  QPushButton* m_compileCancel = nullptr;
  QTimer* m_compileTick = nullptr;
  QElapsedTimer m_compileClock;
  QString m_compileWhat;
  double m_compileEstimate = 0;
  void showCompileProgress();
};

}  // namespace ks
