// The GPU share lock of runners on one GPU (gpu_share.h): shared holders run side by side, an exclusive one
// waits until every shared holder reaches a sync point, and new shared holders queue behind it. flock locks
// belong to open files, so two locks in two threads of this process behave as two runners would.
#include "core/engine/gpu_share.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

using namespace ks::engine;
using namespace std::chrono_literals;

namespace {

std::string lockPath(const char* name) {
  const auto dir = std::filesystem::temp_directory_path() / ("kscope-gpu-share-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

}  // namespace

TEST(GpuShareLock, SharedHoldersDoNotWaitForEachOther) {
  const std::string path = lockPath("shared");
  GpuShareLock a(path), b(path);
  a.syncPoint();
  b.syncPoint();
  EXPECT_FALSE(a.exclusive());
  EXPECT_LT(a.sharedWaitSeconds() + b.sharedWaitSeconds(), 0.5);
}

TEST(GpuShareLock, ExclusiveWaitsForTheSharedHolderSyncPointAndNewSharersQueueBehindIt) {
  const std::string path = lockPath("exclusive");
  GpuShareLock checker(path);  // a runner checking a candidate
  std::atomic<bool> timing{false}, timed{false}, lateCheckerIn{false};
  std::thread timer([&] {
    GpuShareLock lock(path);
    lock.becomeExclusive();  // blocks until the checker steps aside
    timing = true;
    std::this_thread::sleep_for(200ms);
    EXPECT_FALSE(lateCheckerIn.load()) << "a shared holder got in while the GPU was held alone";
    timed = true;
    lock.becomeShared();
  });
  std::this_thread::sleep_for(200ms);
  EXPECT_FALSE(timing.load()) << "the exclusive holder got in while a shared one held the lock";
  std::thread late([&] {
    std::this_thread::sleep_for(50ms);  // arrives while the timer waits
    GpuShareLock lock(path);            // taking it shared queues at the turnstile
    lateCheckerIn = true;
    EXPECT_TRUE(timed.load());
  });
  checker.syncPoint();  // no GPU work in flight: the timer goes first, then the checker goes on
  EXPECT_TRUE(timed.load());
  timer.join();
  late.join();
  EXPECT_GT(checker.sharedWaitSeconds(), 0.1);
}

TEST(GpuShareLock, ScopeRoutesSyncPointsAndExclusiveSectionsToTheActiveLock) {
  const std::string path = lockPath("scope");
  GpuShareLock lock(path);
  {
    int syncs = 0;
    const gpu_share::Scope scope(&lock, [&syncs] { ++syncs; });
    {
      const gpu_share::Idle compiling;  // the device is waited for, then the lock let go
      EXPECT_EQ(syncs, 1);
      GpuShareLock other(path);
      const gpu_share::Scope inner(&other, {});
      const gpu_share::Exclusive alone;  // another runner can have the GPU alone meanwhile
      EXPECT_TRUE(other.exclusive());
    }
    {
      const gpu_share::Exclusive alone;
      EXPECT_TRUE(lock.exclusive());
      gpu_share::syncPoint();  // nothing while alone
      EXPECT_TRUE(lock.exclusive());
    }
    EXPECT_FALSE(lock.exclusive());
  }
  const gpu_share::Exclusive none;  // no active lock: nothing to take
  EXPECT_FALSE(lock.exclusive());
}

TEST(GpuShareLock, AnUnopenableLockFileIsAnErrorNamingIt) {
  try {
    GpuShareLock lock("/nonexistent-kscope-folder/gpu.lock");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-kscope-folder/gpu.lock"), std::string::npos);
  }
}
