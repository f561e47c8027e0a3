#pragma once
// Pins the runner to one CPU for the timing phase and restores every thread's earlier CPU set after.
//
// A model whose time is mostly the CPU launching kernels (a host-bound model, protocol::kHostBoundBusy) is
// timed as fast as the core that launches them runs. On the H100 machine, over 7 entries timed 2-3 times in
// one quiet runner, the speedup's repeat spread (max / min - 1) averaged 11 % unpinned, 7 % with the process
// pinned and 5 % with the timing thread pinned (docs/gpu-results.md §9): a help, not a cure, and measured on
// few passes. The runner pins the timing thread on cuda by default; Process also pins torch's and the
// driver's threads onto that core, which a program doing parallel CPU work would feel.
#include <sched.h>
#include <sys/types.h>

#include <optional>
#include <vector>

#include "core/protocol/cpu_pin_scope.h"

namespace ks::engine {

using protocol::CpuPinScope;  // None: the scheduler places every thread; Thread: the caller; Process: all

class CpuPin {
 public:
  // Pins to the CPU the calling thread runs on now: the caller, or every thread of the process alive now. A
  // thread whose CPU set cannot be changed (it ended, or the system refuses) is left as it was; cpu() is
  // empty when not even the calling thread could be pinned.
  explicit CpuPin(CpuPinScope scope);
  ~CpuPin();
  CpuPin(const CpuPin&) = delete;
  CpuPin& operator=(const CpuPin&) = delete;

  std::optional<int> cpu() const { return cpu_; }
  int threadsPinned() const { return static_cast<int>(saved_.size()); }

 private:
  struct Saved {
    pid_t tid;
    cpu_set_t before;
  };
  std::optional<int> cpu_;
  std::vector<Saved> saved_;
};

}  // namespace ks::engine
