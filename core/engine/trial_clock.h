#pragma once
// Times one model call. On CUDA: events recorded on the current stream around the call (the official
// clock) AND host wall-clock from before the call to after a device-wide synchronize; the gap between them
// is work the events did not see (other streams, host threads) plus launch overhead. On CPU: wall-clock.
#include <c10/core/Device.h>

#include <cstdint>
#include <memory>

#include "core/engine/trial_time.h"

namespace ks::engine {

class TrialClock {
 public:
  virtual ~TrialClock() = default;
  virtual void start() = 0;              // call after synchronize(); the clock starts now
  virtual TrialTime stop() = 0;          // synchronizes the whole device, then reads both clocks
  virtual const char* name() const = 0;  // "cuda-events" | "wall"
};

std::unique_ptr<TrialClock> clockFor(const c10::Device& device);

// Evicts the GPU's L2 cache by writing a buffer of twice its size, so a timed call reads its inputs from
// device memory however recently they were written (and the physical floor of docs/hacks.md holds for it).
// Lines a candidate marked persisting are demoted to normal first (l2_persistence.h). A no-op on CPU.
class CacheFlush {
 public:
  explicit CacheFlush(const c10::Device& device);
  ~CacheFlush();
  CacheFlush(const CacheFlush&) = delete;
  CacheFlush& operator=(const CacheFlush&) = delete;
  void operator()();           // queues the writes on the current stream
  std::int64_t bytes() const;  // what each flush writes; 0 on CPU

 private:
  struct Buffer;
  std::unique_ptr<Buffer> buffer_;
};

// Waits for all work on the device (every stream); a no-op on CPU. Then a sync point of the request's GPU
// share lock, if it has one (gpu_share.h), which may wait for another runner's timing.
void synchronize(const c10::Device& device);
// The device-wide wait alone: for timing a call, whose time must not include a wait for the lock (call
// gpu_share::syncPoint() once the time is taken).
void synchronizeDevice(const c10::Device& device);

// False when the device cannot run work any more (a sticky CUDA error such as an illegal address: the
// context is lost and only a new process can use the GPU). Always true on CPU.
bool deviceUsable(const c10::Device& device);

// True when this runner was built against a torch with CUDA (KS_ENGINE_CUDA).
bool builtWithCuda();

}  // namespace ks::engine
