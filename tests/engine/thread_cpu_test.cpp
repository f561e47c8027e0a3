// CPU time per native thread (thread_cpu.h): a thread started after the baseline that works is counted, one
// that sleeps is not, and the baseline's own threads never are. The worker spins until its own CPU clock says
// 200 ms, so a loaded machine changes how long that takes, not how much is counted.
#include "core/engine/thread_cpu.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <thread>

using namespace ks::engine;

namespace {

double threadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1000 + static_cast<double>(t.tv_nsec) / 1e6;
}

void spinFor(double cpuMs) {
  const double start = threadCpuMs();
  volatile double sink = 0;
  while (threadCpuMs() - start < cpuMs) sink = sink + 1;
}

}  // namespace

TEST(ThreadCpu, AWorkingThreadStartedAfterTheBaselineIsCountedASleepingOneAndTheBaselineAreNot) {
  const ThreadTimes baselineTimes = threadCpuTimes();
  ASSERT_FALSE(baselineTimes.empty()) << "/proc/self/task unreadable";
  const std::set<pid_t> baseline = threadIds(baselineTimes);

  const ThreadTimes before = threadCpuTimes();
  std::thread sleeper([] { std::this_thread::sleep_for(std::chrono::milliseconds(300)); });
  spinFor(100);  // the main thread, in the baseline, works too
  sleeper.join();
  ForeignCpu idle = foreignCpuBetween(before, threadCpuTimes(), baseline);
  EXPECT_LT(idle.ms, 20) << "a sleeping thread and the baseline's own work";

  std::atomic<bool> done{false}, measured{false};
  const ThreadTimes start = threadCpuTimes();  // before the worker exists: it is counted from its start
  std::thread worker([&] {
    spinFor(200);
    done = true;
    while (!measured) std::this_thread::sleep_for(std::chrono::milliseconds(1));  // alive when read
  });
  while (!done) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const ForeignCpu busy = foreignCpuBetween(start, threadCpuTimes(), baseline);
  measured = true;
  worker.join();
  EXPECT_GE(busy.ms, 150) << "200 ms of CPU, counted in ticks";
  EXPECT_LE(busy.ms, 400);
  EXPECT_EQ(busy.threads, 1);
}
