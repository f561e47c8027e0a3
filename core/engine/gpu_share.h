#pragma once
// Several runners on one GPU (`kscope batch --timing-jobs N`): while a runner checks a candidate (load,
// correctness, probes) it holds a shared lock; while it times and profiles one it holds the lock alone, so no
// other runner's work is on the GPU, or on the CPU beside it, during a timed trial. docs/runner-protocol.md,
// option `gpu_share`.
//
// The lock is two flock(2) files: <path>, held shared or exclusive, and <path>.turn, a turnstile an exclusive
// holder takes while it waits, so new shared holders queue behind it instead of starving it. A shared holder
// lets a waiting exclusive one in at sync points: after each device-wide synchronize (trial_clock.h), when it
// has no GPU work in flight. A runner that dies releases both (the kernel drops flock locks with the process).
#include <functional>
#include <string>

namespace ks::engine {

class GpuShareLock {
 public:
  // Opens (creating) <path> and <path>.turn and takes the lock shared. Throws std::runtime_error naming the
  // file when one cannot be opened.
  explicit GpuShareLock(const std::string& path);
  ~GpuShareLock();
  GpuShareLock(const GpuShareLock&) = delete;
  GpuShareLock& operator=(const GpuShareLock&) = delete;

  // Shared: when an exclusive holder waits, steps aside until it is done. Exclusive: nothing.
  void syncPoint();
  void becomeExclusive();  // from shared; blocks until every other holder has stepped aside
  void becomeShared();     // from exclusive
  void release();          // from shared: holds nothing (CPU-only work, such as a compile, follows)
  void retake();           // after release(): shared again

  bool exclusive() const { return exclusive_; }
  double sharedWaitSeconds() const { return sharedWait_; }        // blocked taking or retaking it shared
  double exclusiveWaitSeconds() const { return exclusiveWait_; }  // blocked taking it alone

 private:
  void takeShared();
  int lock_ = -1, turn_ = -1;
  bool exclusive_ = false, released_ = false;
  double sharedWait_ = 0, exclusiveWait_ = 0;
};

// The request's lock, if its options name one: sync points and the timing phase find it here.
namespace gpu_share {

// Makes `lock` the process's active lock while it lives (nullptr: none); `synchronizeDevice` waits for the
// runner's GPU work, before the lock is let go for CPU-only work (Idle).
class Scope {
 public:
  Scope(GpuShareLock* lock, std::function<void()> synchronizeDevice);
  ~Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  GpuShareLock* previous_;
  std::function<void()> previousSync_;
};

void syncPoint();  // the active lock's syncPoint(); nothing without one

class Exclusive {  // the GPU to this runner alone while it lives (with an active lock)
 public:
  Exclusive();
  ~Exclusive();
  Exclusive(const Exclusive&) = delete;
  Exclusive& operator=(const Exclusive&) = delete;

 private:
  GpuShareLock* lock_;
};

// CPU-only work ahead (a compiler run for load_inline, seconds to minutes): while it lives the runner holds
// no lock, so others' timing does not wait for it. Nothing while the GPU is held alone.
class Idle {
 public:
  Idle();
  ~Idle();
  Idle(const Idle&) = delete;
  Idle& operator=(const Idle&) = delete;

 private:
  GpuShareLock* lock_ = nullptr;
};

}  // namespace gpu_share
}  // namespace ks::engine
