#include "app/kscope/runner_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ks::cli {

RunnerPool::RunnerPool(const supervisor::SupervisorOptions& base, std::string name, int runners)
    : base_(base), name_(std::move(name)), runners_(std::max(1, runners)) {}

void RunnerPool::forEach(std::size_t count, const std::function<bool()>& stopRequested,
                         const std::function<void(std::size_t, supervisor::RunnerSupervisor&)>& work) {
  forEachOn(count, stopRequested,
            [&](std::size_t i, supervisor::RunnerSupervisor& runner, int) { work(i, runner); });
}

void RunnerPool::forEachOn(
    std::size_t count, const std::function<bool()>& stopRequested,
    const std::function<void(std::size_t, supervisor::RunnerSupervisor&, int worker)>& work) {
  if (count == 0) return;
  const int workers = std::max(1, std::min<int>(runners_, int(count)));
  std::vector<std::unique_ptr<supervisor::RunnerSupervisor>> supervisors;
  for (int w = 0; w < workers; ++w) {
    supervisors.push_back(std::make_unique<supervisor::RunnerSupervisor>(supervisor::poolRunnerOptions(
        base_, name_, w, std::size_t(w) < perWorker_.size() ? perWorker_[std::size_t(w)] : decltype(perWorker_)::value_type{})));
  }
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w, runner = supervisors[std::size_t(w)].get()] {
      for (std::size_t i; !stopping_ && (i = next++) < count;) work(i, *runner, w);
    });

  std::mutex waitMutex;
  std::condition_variable finished;
  std::atomic<int> running{workers};
  std::thread watcher([&] {
    std::unique_lock lock(waitMutex);
    while (running > 0) {
      if (!stopping_ && stopRequested && stopRequested()) {
        stopping_ = true;
        for (auto& s : supervisors) s->cancel();
      }
      finished.wait_for(lock, std::chrono::milliseconds(100));
    }
  });
  for (auto& t : threads) {
    t.join();
    --running;
  }
  finished.notify_all();
  watcher.join();
  supervisors.clear();  // shuts the runners down
}

}  // namespace ks::cli
