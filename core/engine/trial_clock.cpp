#include "core/engine/trial_clock.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>

#include <chrono>
#include <optional>

#ifdef KS_ENGINE_CUDA
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

#include "core/engine/gpu_share.h"
#include "core/engine/l2_persistence.h"

namespace ks::engine {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

class WallClock final : public TrialClock {
 public:
  void start() override { start_ = Clock::now(); }
  TrialTime stop() override {
    const double ms = msSince(start_);
    return {ms, ms};
  }
  const char* name() const override { return "wall"; }

 private:
  Clock::time_point start_;
};

#ifdef KS_ENGINE_CUDA
class CudaEventClock final : public TrialClock {
 public:
  explicit CudaEventClock(const c10::Device& device) : device_(device) {}
  void start() override {
    c10::cuda::CUDAGuard guard(device_);
    stream_ = c10::cuda::getCurrentCUDAStream(device_.index());
    hostStart_ = Clock::now();
    begin_.record(*stream_);
  }
  TrialTime stop() override {
    c10::cuda::CUDAGuard guard(device_);
    end_.record(*stream_);
    C10_CUDA_CHECK(cudaDeviceSynchronize());
    const double host = msSince(hostStart_);
    return {static_cast<double>(begin_.elapsed_time(end_)), host};
  }
  const char* name() const override { return "cuda-events"; }

 private:
  c10::Device device_;
  std::optional<c10::cuda::CUDAStream> stream_;
  at::cuda::CUDAEvent begin_{cudaEventDefault}, end_{cudaEventDefault};
  Clock::time_point hostStart_;
};
#endif

}  // namespace

struct CacheFlush::Buffer {
  c10::Device device = c10::Device(c10::kCPU);
  at::Tensor bytes;
};

CacheFlush::CacheFlush(const c10::Device& device) : buffer_(std::make_unique<Buffer>()) {
  buffer_->device = device;
#ifdef KS_ENGINE_CUDA
  if (!device.is_cuda()) return;
  c10::cuda::CUDAGuard guard(device);
  int l2 = 0;
  C10_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device.index()));
  if (l2 > 0)
    buffer_->bytes = at::empty({2 * std::int64_t{l2}}, at::TensorOptions().dtype(at::kByte).device(device));
#else
  (void)device;
#endif
}

CacheFlush::~CacheFlush() = default;

void CacheFlush::operator()() {
  if (!buffer_->bytes.defined()) return;
  resetPersistingL2(buffer_->device);  // persisting lines would survive the writes below (l2_persistence.h)
  buffer_->bytes.zero_();
}

std::int64_t CacheFlush::bytes() const { return buffer_->bytes.defined() ? buffer_->bytes.numel() : 0; }

std::unique_ptr<TrialClock> clockFor(const c10::Device& device) {
#ifdef KS_ENGINE_CUDA
  if (device.is_cuda()) return std::make_unique<CudaEventClock>(device);
#endif
  return std::make_unique<WallClock>();
}

void synchronize(const c10::Device& device) {
  synchronizeDevice(device);
  gpu_share::syncPoint();  // nothing of ours is in flight: a runner waiting to time may go first
}

void synchronizeDevice(const c10::Device& device) {
#ifdef KS_ENGINE_CUDA
  if (device.is_cuda()) {
    c10::cuda::CUDAGuard guard(device);
    C10_CUDA_CHECK(cudaDeviceSynchronize());
  }
#else
  (void)device;
#endif
}

bool deviceUsable(const c10::Device& device) {
  if (!device.is_cuda()) return true;
  try {
    synchronize(device);
    at::empty({1}, at::TensorOptions().device(device)).fill_(1);
    synchronize(device);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

bool builtWithCuda() {
#ifdef KS_ENGINE_CUDA
  return true;
#else
  return false;
#endif
}

}  // namespace ks::engine
