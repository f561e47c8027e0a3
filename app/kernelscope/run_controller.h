#pragma once
// Re-runs candidates through kscope-runner without blocking the GUI: a queue of RunJobs worked by one runner
// per GPU (the GPUs of cluster::gpuRunners: every one found unless the Run settings name some, one
// runner when there is none or one), each runner's RunWorker on a QThread of its own (a runner request
// blocks for the whole evaluation). A runner takes the next job as it frees up. Each job's answer is recorded
// in the results store there, with the GPU that measured it, and reported here (finished). With one runner
// the queue's progress reads "3/40 · L1/12 r2 · timing 20/55"; with several "3/40 done · 2 of 2 GPUs busy",
// and activity() says what each GPU does; either adds "queue: about 4 min left" while jobs wait. Cancel kills
// every runner's request in flight and drains the queue. The runner's environment (`hello`) is asked for by
// probe() and before the first run.
#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

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
  ~RunController() override;  // cancels, stops the runners and joins their threads

  // For the jobs queued from now on.
  void setChoices(const runs::RunChoices& choices, const RunLimits& limits);
  // Which GPUs re-runs time on, one runner each: "" or "all" for every GPU found, else ids such as "0,2"
  // (cluster::gpuRunners, read now: $KSCOPE_GPU_LIST, $CUDA_VISIBLE_DEVICES, the driver's list). The runners
  // change when none is busy (the next queue). Returns why the list does not read, which enqueue() then
  // says instead of queuing; empty when it reads.
  QString setGpus(const QString& spec);
  // The runners chosen: their GPU ids ("" for the one runner without a GPU list), and where the list came
  // from ("KSCOPE_GPU_LIST", "--gpus", "/proc/driver/nvidia/gpus: no GPU found ...").
  QStringList gpus() const;
  QString gpuSource() const { return m_gpuSource; }
  int runnerCount() const { return static_cast<int>(m_lanes.size()); }
  // One line per runner while the queue runs: "GPU 1 · L1/12 r2 · timing 20/55 · about 10 s left",
  // "GPU 2 · idle".
  QStringList activity() const;

  // Queues candidate `row` of `run` (read from `sourceFile`) with `program` as its code: the recorded program
  // or an edit of it. Returns why it cannot run (no program, a bad .cu header, no runner, a GPU list that
  // does not read); empty when queued.
  QString enqueue(const std::shared_ptr<const LoadedRun>& run, const QString& sourceFile, int row,
                  const QString& program);
  // Queues the recorded program of every row of `rows` that has one; returns how many were queued.
  int enqueueRecorded(const std::shared_ptr<const LoadedRun>& run, const QString& sourceFile,
                      const QList<int>& rows);
  void probe();  // asks the (first) runner for its environment (starting it when none runs)

  // Why row `row`'s candidate, as `program`, cannot be run at all (a .cu without a reference, ...); empty
  // when it can. Does not look at the runner: that problem is said when Run is chosen.
  QString whyNotRunnable(const std::shared_ptr<const LoadedRun>& run, int row, const QString& program) const;
  // Whether Run should compile `program` with nvcc alone instead of running it: the runner
  // said it has no GPU, the device is Auto (not an explicit cpu), and the program builds CUDA with
  // load_inline. Run there would fail inside torch's architecture detection before nvcc ran, and time the
  // program's PyTorch fallback; the compile-only path shows the real compiler errors and resources instead.
  bool compilesInsteadOfRunning(const QString& program) const;
  // The runner's environment, once it answered hello (or a test said it).
  const std::optional<protocol::Environment>& environment() const { return m_environment; }
  bool isBusy() const { return busyLanes() > 0 || !m_queue.empty(); }
  QString runnerProblem() const { return m_runnerProblem; }  // empty when kscope-runner was found

 public slots:
  void cancel();

 signals:
  void environmentChanged(const ks::protocol::Environment& environment);
  void runnerUnavailable(const QString& message);
  void progressChanged(int done, int total, const QString& text);
  // `run` was recorded in the store when run.row.id > 0; otherwise `storeError` says why (empty for a
  // cancelled run, which is never recorded). run.gpu names the GPU whose runner measured it.
  void finished(const ks::RunJob& job, const ks::runs::MeasuredRun& run, const QString& storeError);
  void idle(int ran, int cancelled);  // the queue ran dry: how many ran to an answer, how many were cancelled

 private:
  struct Lane;  // one runner: its worker and thread, the job in flight and its phase

  // The evaluate request for `program` as candidate `row` of `run`, with the user's choices; or why there is
  // none. The one place enqueue() and whyNotRunnable() make it.
  std::variant<protocol::Request, QString> requestFor(const std::shared_ptr<const LoadedRun>& run, int row,
                                                      const QString& program) const;
  Lane* makeLane(int index, int count, const std::string& gpu);
  void ensureLanes();  // the runners of the GPUs chosen, while none is busy
  void retire(std::unique_ptr<Lane> lane);
  bool ours(const Lane* lane) const;
  int busyLanes() const;
  void startNext();  // every free runner takes the next job; idle() when none is left
  void startOn(Lane& lane);
  void onEvent(Lane* lane, int jobId, const QString& phase, int done, int total);
  void onBuild(Lane* lane, int jobId, const protocol::BuildEvent& build);
  QString phaseText(const Lane& lane) const;
  QString queueLeft() const;  // "queue: about 4 min left" while jobs wait and one has ended; else empty
  void onFinished(Lane* lane, const RunJob& job, const runs::MeasuredRun& run, const QString& storeError);
  void emitProgress();
  template <class Work>
  void onWorker(Lane& lane, Work&& work);

  std::filesystem::path m_runnerPath, m_storePath;
  QString m_runnerProblem;
  std::optional<protocol::Environment> m_environment;
  std::vector<std::string> m_gpuIds{""};  // chosen (setGpus); the lanes follow when none is busy
  QString m_gpuSource, m_gpuProblem;
  std::vector<std::unique_ptr<Lane>> m_lanes;
  std::vector<std::unique_ptr<Lane>> m_retiring;  // stopping their runners; deleted when their thread ends
  std::deque<RunJob> m_queue;
  runs::RunChoices m_choices;
  RunLimits m_limits;
  QTimer m_tick;  // re-says the progress every few seconds, so "so far" moves on a long step
  bool m_environmentAsked = false;
  int m_nextId = 1;
  int m_done = 0, m_total = 0, m_cancelled = 0;
  int m_jobsTimed = 0;          // jobs of this queue that ran to an answer, for the queue's estimate
  double m_jobSeconds = 0;      // their wall time together
};

}  // namespace ks
