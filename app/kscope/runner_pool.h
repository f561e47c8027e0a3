#pragma once
// N runners working through a list at once, for `kscope batch`: the build stage (batch_prebuild.h) and the
// checks of the timing stage (--timing-jobs). Each worker thread owns one RunnerSupervisor (its own runner
// process and scratch folder <scratchRoot>/<name>-<n>) and takes the next index as it frees up.
#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/supervisor/runner_supervisor.h"
#include "core/supervisor/supervisor_options.h"

namespace ks::cli {

// Calls work(i, runner) for each i in [0, count) on `runners` runners at once (fewer when count is smaller).
// Once stopRequested() returns true (polled every 0.1 s) no new index is handed out and the requests in
// flight are cancelled; `work` can tell by stopping(). Returns when every worker is done and the runners
// are shut down.
class RunnerPool {
 public:
  RunnerPool(const supervisor::SupervisorOptions& base, std::string name, int runners);
  void forEach(std::size_t count, const std::function<bool()>& stopRequested,
               const std::function<void(std::size_t, supervisor::RunnerSupervisor&)>& work);
  // Same, telling `work` which runner (0..runners-1) it is on.
  void forEachOn(std::size_t count, const std::function<bool()>& stopRequested,
                 const std::function<void(std::size_t, supervisor::RunnerSupervisor&, int worker)>& work);
  // Variables added to runner w's environment (e.g. its own CUDA_VISIBLE_DEVICES); index w of the list.
  void setWorkerEnvironment(std::vector<std::vector<std::pair<std::string, std::string>>> perWorker) {
    perWorker_ = std::move(perWorker);
  }
  bool stopping() const { return stopping_; }

 private:
  supervisor::SupervisorOptions base_;
  std::string name_;
  int runners_;
  std::vector<std::vector<std::pair<std::string, std::string>>> perWorker_;
  std::atomic<bool> stopping_{false};
};

}  // namespace ks::cli
