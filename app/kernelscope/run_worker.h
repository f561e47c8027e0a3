#pragma once
// The worker-thread half of RunController: owns the RunnerSupervisor and the connection to the results
// store, and does what blocks — a request to kscope-runner, then the row of its answer in the store. Every
// call but cancelThrough() is made on the worker thread, one at a time; cancelThrough() is for the GUI.
// The runner always runs under a memory limit (by default three quarters of this machine's memory, shared by
// the runners kept at once), so a runaway program is stopped and reported as `memory` before the system's OOM killer picks a process —
// possibly the GUI — to end.
#include <atomic>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <variant>

#include "app/kernelscope/run_job.h"
#include "core/runs/measured_run.h"
#include "core/store/result_store.h"
#include "core/supervisor/runner_supervisor.h"

namespace ks {

// Which of the runners kept at once this one is (one per GPU): runner `index` of `count`, seeing GPU
// `gpu` alone (CUDA_VISIBLE_DEVICES, cluster::gpuRunnerEnvironment) in a scratch folder of its own; `gpu` empty:
// the one runner, seeing what the GUI sees.
struct RunnerSlot {
  int index = 0;
  int count = 1;
  std::string gpu;
};

class RunWorker {
 public:
  RunWorker(std::filesystem::path runner, std::filesystem::path storePath, RunnerSlot slot = {});
  ~RunWorker();
  RunWorker(const RunWorker&) = delete;
  RunWorker& operator=(const RunWorker&) = delete;

  struct Finished {
    runs::MeasuredRun run;   // row.id is 0 when it was not recorded
    std::string storeError;  // why a result was not recorded; a cancelled run is never recorded
  };
  // Evaluates `job` (events to `sink`, on this thread) and records what the runner answered. A cancelled
  // job ends with a `cancelled` error and is not recorded.
  Finished evaluate(const RunJob& job, const supervisor::RunnerSupervisor::EventSink& sink);
  // The runner's environment (`hello`), or why it could not be had.
  std::variant<protocol::Environment, std::string> hello();
  // Starts the runner's CUDA context, cuBLAS, cuDNN and profiler (the `warm_up` op) so the first Run does not
  // pay for them (on the H100 its first evaluate took 8.7 s instead of 1.9 s).
  void warmUp();
  void stopRunner();

  // From any thread: cancels every job numbered up to `jobId` and the request in flight.
  void cancelThrough(int jobId);

 private:
  supervisor::RunnerSupervisor& supervisor(const RunLimits& limits);
  bool cancelled(int jobId) const { return jobId <= m_cancelledThrough.load(); }

  std::filesystem::path m_runner;
  std::filesystem::path m_storePath;
  RunnerSlot m_slot;
  std::mutex m_supervisorMutex;  // m_supervisor is replaced on the worker thread, cancelled from the GUI's
  std::unique_ptr<supervisor::RunnerSupervisor> m_supervisor;
  RunLimits m_limits;
  std::unique_ptr<store::ResultStore> m_store;
  std::atomic<int> m_cancelledThrough{0};
};

}  // namespace ks
