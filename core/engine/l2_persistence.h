#pragma once
// Persisting L2 (l2-persistence): a candidate can reserve part of the GPU's L2 for persisting accesses
// (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, ...)) and mark its data persisting through a stream's
// access-policy window, so the timing loop's flush (trial_clock.h, CacheFlush) evicts normal lines but not
// its inputs. The flush therefore first demotes every persisting line to normal
// (cudaCtxResetPersistingL2Cache), and the probes read the limit and the current stream's window back to
// report what the candidate set. CUDA runtime only; a no-op (state.checked false) on CPU and in a runner
// built without CUDA.
#include <c10/core/Device.h>

#include <cstdint>
#include <string>

namespace ks::engine {

struct PersistingL2 {
  bool checked = false;
  std::string note;                  // why not checked
  std::int64_t limitBytes = 0;       // cudaLimitPersistingL2CacheSize
  std::int64_t windowBytes = 0;      // the current stream's access-policy window
  bool windowPersisting = false;     // ... with hits marked persisting
};

PersistingL2 readPersistingL2(const c10::Device& device);
// Demotes persisting lines to normal ones, so that a flush evicts them (before each timed trial).
void resetPersistingL2(const c10::Device& device);
// Puts the limit and the current stream's window back to `state` (after a request, for the next one).
void restorePersistingL2(const c10::Device& device, const PersistingL2& state);

}  // namespace ks::engine
