#include "core/engine/l2_persistence.h"

#ifdef KS_ENGINE_CUDA
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

namespace ks::engine {

#ifdef KS_ENGINE_CUDA
namespace {

cudaStream_t currentStream(const c10::Device& device) {
  return c10::cuda::getCurrentCUDAStream(device.index()).stream();
}

}  // namespace

PersistingL2 readPersistingL2(const c10::Device& device) {
  PersistingL2 s;
  if (!device.is_cuda()) {
    s.note = "no GPU";
    return s;
  }
  c10::cuda::CUDAGuard guard(device);
  std::size_t limit = 0;
  if (cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize) != cudaSuccess) {
    (void)cudaGetLastError();
    s.note = "this GPU has no persisting L2 (cudaLimitPersistingL2CacheSize unsupported)";
    return s;
  }
  s.limitBytes = static_cast<std::int64_t>(limit);
  cudaStreamAttrValue value{};
  if (cudaStreamGetAttribute(currentStream(device), cudaStreamAttributeAccessPolicyWindow, &value) == cudaSuccess) {
    s.windowBytes = static_cast<std::int64_t>(value.accessPolicyWindow.num_bytes);
    s.windowPersisting = value.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting;
  } else {
    (void)cudaGetLastError();
  }
  s.checked = true;
  return s;
}

void resetPersistingL2(const c10::Device& device) {
  if (!device.is_cuda()) return;
  c10::cuda::CUDAGuard guard(device);
  if (cudaCtxResetPersistingL2Cache() != cudaSuccess) (void)cudaGetLastError();  // none on pre-Ampere GPUs
}

void restorePersistingL2(const c10::Device& device, const PersistingL2& state) {
  if (!device.is_cuda() || !state.checked) return;
  c10::cuda::CUDAGuard guard(device);
  if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<std::size_t>(state.limitBytes)) != cudaSuccess)
    (void)cudaGetLastError();
  cudaStreamAttrValue value{};
  value.accessPolicyWindow.num_bytes = 0;  // no window: every access normal
  value.accessPolicyWindow.hitProp = cudaAccessPropertyNormal;
  value.accessPolicyWindow.missProp = cudaAccessPropertyNormal;
  if (cudaStreamSetAttribute(currentStream(device), cudaStreamAttributeAccessPolicyWindow, &value) != cudaSuccess)
    (void)cudaGetLastError();
  resetPersistingL2(device);
}

#else

PersistingL2 readPersistingL2(const c10::Device&) { return {false, "built without CUDA", 0, 0, false}; }
void resetPersistingL2(const c10::Device&) {}
void restorePersistingL2(const c10::Device&, const PersistingL2&) {}

#endif

}  // namespace ks::engine
