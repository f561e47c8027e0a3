#pragma once
// Re-runs candidates through kscope-runner without blocking the GUI: a queue of RunJobs worked one at a time
// by a RunWorker on its own QThread (a runner request blocks for the whole evaluation). Each job's answer is
// recorded in the results store there and reported here (finished); the queue's progress reads
// "3/40 · L1/12 r2 · timing 20/55". Cancel kills the runner in flight and drains the queue. The runner's
// environment (`hello`) is asked for by probe() and before the first run.
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QThread>
#include <QTimer>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>

#include "app/kernelscope/run_job.h"
#include "core/protocol/evaluate_result.h"
#include "core/protocol/events.h"
#include "core/runs/evaluate_options.h"
#include "core/runs/measured_run.h"

namespace ks {

class LoadedRun;
class RunWorker;

class RunController : public QObject {
  Q_OBJECT

 public:
  // Runs `runner` (empty: findRunner's search) and records in the store at `storePath`.
  RunController(const std::filesystem::path& runner, const std::filesystem::path& storePath,
                QObject* parent = nullptr);
  ~RunController() override;  // cancels, stops the runner and joins the worker thread

  // For the jobs queued from now on.
  void setChoices(const runs::RunChoices& choices, const RunLimits& limits);

  // Queues candidate `row` of `run` (read from `sourceFile`) with `program` as its code: the recorded program
  // or an edit of it. Returns why it cannot run (no program, a bad .cu header, no runner); empty when queued.
  QString enqueue(const std::shared_ptr<const LoadedRun>& run, const QString& sourceFile, int row,
                  const QString& program);
  // Queues the recorded program of every row of `rows` that has one; returns how many were queued.
  int enqueueRecorded(const std::shared_ptr<const LoadedRun>& run, const QString& sourceFile,
                      const QList<int>& rows);
  void probe();  // asks the runner for its environment (starting it when none runs)

  // Why row `row`'s candidate, as `program`, cannot be run at all (a .cu without a reference, ...); empty
  // when it can. Does not look at the runner: that problem is said when Run is chosen.
  QString whyNotRunnable(const std::shared_ptr<const LoadedRun>& run, int row, const QString& program) const;
  // Whether Run should compile `program` with nvcc alone instead of running it (issue 21 item 4): the runner
  // said it has no GPU, the device is Auto (not an explicit cpu), and the program builds CUDA with
  // load_inline. Run there would fail inside torch's architecture detection before nvcc ran, and time the
  // program's PyTorch fallback; the compile-only path shows the real compiler errors and resources instead.
  bool compilesInsteadOfRunning(const QString& program) const;
  // The runner's environment, once it answered hello (or a test said it).
  const std::optional<protocol::Environment>& environment() const { return m_environment; }
  bool isBusy() const { return m_inFlight || !m_queue.empty(); }
  QString runnerProblem() const { return m_runnerProblem; }  // empty when kscope-runner was found

 public slots:
  void cancel();

 signals:
  void environmentChanged(const ks::protocol::Environment& environment);
  void runnerUnavailable(const QString& message);
  void progressChanged(int done, int total, const QString& text);
  // `run` was recorded in the store when run.row.id > 0; otherwise `storeError` says why (empty for a
  // cancelled run, which is never recorded).
  void finished(const ks::RunJob& job, const ks::runs::MeasuredRun& run, const QString& storeError);
  void idle(int ran, int cancelled);  // the queue ran dry: how many ran to an answer, how many were cancelled

 private:
  void startNext();
  void onEvent(int jobId, const QString& phase, int done, int total);
  void onBuild(int jobId, const protocol::BuildEvent& build);
  QString phaseText() const;
  void onFinished(const RunJob& job, const runs::MeasuredRun& run, const QString& storeError);
  void emitProgress(const QString& phase);
  template <class Work>
  void onWorker(Work&& work);

  QString m_runnerProblem;
  std::optional<protocol::Environment> m_environment;
  std::unique_ptr<RunWorker> m_worker;
  QThread m_thread;
  QObject* m_context;  // lives on m_thread: what is posted to it runs there
  std::deque<RunJob> m_queue;
  std::unique_ptr<RunJob> m_inFlight;
  runs::RunChoices m_choices;
  RunLimits m_limits;
  QString m_phase;  // of the job in flight: "correctness 1/5 · 3 min so far · about 12 min left"
  // The phase in progress and its steps, for the estimate (views/model/phase_estimate.h): when it (re)started
  // and how many of its steps were done then; a build that interrupts it restarts the clock.
  QString m_phaseName;
  QElapsedTimer m_phaseClock;
  int m_phaseDoneAtStart = 0, m_phaseDone = 0, m_phaseTotal = 0;
  bool m_buildReported = false, m_buildFailed = false;  // a `build` event came; a candidate build failed
  QString m_buildNote;  // runs::buildEventNote of the build event, else "a build took 41 s"; for the whole job
  QTimer m_tick;        // re-says the progress every few seconds, so "so far" moves on a long step
  bool m_environmentAsked = false;
  int m_nextId = 1;
  int m_done = 0, m_total = 0, m_cancelled = 0;
};

}  // namespace ks
