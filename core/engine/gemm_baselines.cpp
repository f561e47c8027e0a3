#include "core/engine/gemm_baselines.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/zeros.h>

#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <thread>

#ifdef KS_ENGINE_CUDA
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>

#include "core/engine/cublas_baselines.h"
#endif

#include "core/engine/gemm_task.h"
#include "core/engine/gpu_share.h"
#include "core/engine/model_pair.h"
#include "core/engine/phase_deadlines.h"
#include "core/engine/trial_clock.h"
#include "core/protocol/gemm_baselines.h"

namespace ks::engine {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t methodSeed(std::uint64_t seed, stats::GemmMethod m) {
  return seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(m) + 1;
}

// The task's inputs for `seed` (gemm_task.h), with the baselines' views of them.
GemmRoundInputs roundInputs(const protocol::GemmRun& run, const c10::Device& device, std::int64_t seed) {
  ModelArgs args = gemmInputs(run, device, seed);
  GemmRoundInputs in;
  in.a = args[0].tensor;
  in.b = args[1].tensor;
  in.bColMajor = run.padded() ? in.b.t().contiguous() : args[2].tensor;
  in.c = at::empty({run.m, run.n}, in.a.options());
  const std::size_t first = run.padded() ? 2 : 0;
  for (std::size_t i = first; i < first + 3; ++i) in.candidate.push_back(args[i].tensor);
  return in;
}

}  // namespace

MethodTimes runGemmMethod(stats::GemmMethod method, const std::vector<GemmCall>& calls,
                          const GemmInputsFor& inputsFor, const c10::Device& device,
                          const GemmBaselineSettings& s) {
  MethodTimes t;
  t.ms.assign(calls.size(), {});
  t.hostMs.assign(calls.size(), {});
  const std::uint64_t seed = methodSeed(s.seed, method);
  std::optional<CacheFlush> flush;
  if (stats::flushesL2(method)) flush.emplace(device);
  std::unique_ptr<TrialClock> clock = clockFor(device);
  stats::ArrivalGaps gaps(s.serverQps, seed);
  const bool fresh = stats::freshInputsEachRound(method);
  GemmRoundInputs same;
  if (!fresh) same = inputsFor(static_cast<std::int64_t>(s.seed));
  Clock::time_point measuredSince{};
  for (int round = 0;; ++round) {
    const bool warm = round < s.warmupRounds;
    if (!warm) {
      if (round == s.warmupRounds) measuredSince = Clock::now();
      const double elapsed = std::chrono::duration<double>(Clock::now() - measuredSince).count();
      if (t.rounds >= s.maxRounds || (t.rounds >= s.minRounds && elapsed >= s.secondsPerMethod)) break;
    }
    GemmRoundInputs fresher;
    if (fresh) fresher = inputsFor(static_cast<std::int64_t>(s.seed) + 1 + round);
    GemmRoundInputs& inputs = fresh ? fresher : same;
    synchronizeDevice(device);
    for (std::size_t i : stats::roundOrder(calls.size(), seed, static_cast<std::uint64_t>(round))) {
      if (flush) (*flush)();
      synchronizeDevice(device);
      clock->start();
      calls[i].call(inputs);
      const TrialTime time = clock->stop();
      if (!warm) {
        t.ms[i].push_back(time.officialMs);
        t.hostMs[i].push_back(time.hostMs);
      }
    }
    if (!warm) ++t.rounds;
    if (method == stats::GemmMethod::CudaL2Server)
      std::this_thread::sleep_for(std::chrono::duration<double>(gaps.nextSeconds()));
  }
  return t;
}

std::vector<protocol::BaselineTiming> summarizeGemmMethod(stats::GemmMethod method,
                                                          const std::vector<GemmCall>& calls,
                                                          const MethodTimes& times) {
  std::vector<protocol::BaselineTiming> out;
  for (std::size_t i = 1; i < calls.size(); ++i) {
    protocol::BaselineTiming b;
    b.baseline = calls[i].name;
    b.method = stats::gemmMethodName(method);
    b.rounds = times.rounds;
    b.baselineMs = stats::summaryMs(method, times.ms[i]);
    b.candidateMs = stats::summaryMs(method, times.ms[0]);
    b.speedup = stats::methodSpeedup(method, times.ms[0], times.ms[i]);
    b.hostBaselineMs = stats::summaryMs(method, times.hostMs[i]);
    b.hostCandidateMs = stats::summaryMs(method, times.hostMs[0]);
    out.push_back(std::move(b));
  }
  return out;
}

protocol::GemmBaselines timeGemmBaselines(NativeShimCall candidate, const protocol::GemmRun& run,
                                          const c10::Device& device, const GemmBaselineSettings& s,
                                          PhaseReporter& reporter) {
  protocol::GemmBaselines result;
  result.orderSeed = static_cast<std::int64_t>(s.seed);
  result.serverQps = s.serverQps;
  reporter.enter(protocol::Phase::Timing, kMinTimedDeadlineS * 2 + 4 * 3 * s.secondsPerMethod);
  std::vector<GemmCall> calls;
  calls.push_back({"candidate", [candidate](GemmRoundInputs& in) {
                     at::Tensor out;
                     char message[1024] = {};
                     if (candidate(in.candidate.data(), 3, &out, message, sizeof message) != nvcc::kShimCallOk)
                       throw std::runtime_error(std::string("the candidate failed: ") + message);
                   }});
  calls.push_back({"torch.matmul", [](GemmRoundInputs& in) {
                     if (in.a.is_cuda()) {
                       at::matmul_out(in.c, in.a, in.b);  // torch.matmul(a, b, out=c), as CUDA-L2 calls it
                     } else {  // no native GEMM runs on a CPU (and older torch has no float16 CPU matmul):
                       in.c.copy_(at::matmul(in.a.to(at::kFloat), in.b.to(at::kFloat)));  // bookkeeping only
                     }
                   }});
  const GemmInputsFor inputsFor = [&run, &device](std::int64_t seed) { return roundInputs(run, device, seed); };

#ifdef KS_ENGINE_CUDA
  std::unique_ptr<CublasBaselines> cublas;
  if (device.is_cuda()) {
    try {
      c10::cuda::CUDAGuard guard(device);
      cublas = std::make_unique<CublasBaselines>(run.m, run.n, run.k,
                                                 c10::cuda::getCurrentCUDAStream(device.index()).stream(),
                                                 s.autotuneAlgorithms);
      GemmRoundInputs scratch = inputsFor(static_cast<std::int64_t>(s.seed));
      const GemmPointers p{scratch.a.data_ptr(), scratch.b.data_ptr(), scratch.bColMajor.data_ptr(),
                           scratch.c.data_ptr()};
      cublas->autotune(
          p,
          [](const GemmPointers&, void* context) {
            auto* in = static_cast<GemmRoundInputs*>(context);
            in->a.normal_();
            in->b.normal_();
            in->bColMajor.copy_(in->b.t());
          },
          &scratch, 3, 10, s.seed);
      result.autotuneAlgorithms = std::max(cublas->algorithmsTried(true), cublas->algorithmsTried(false));
      for (CublasBaseline which : kCublasBaselines) {
        CublasBaselines* lib = cublas.get();
        calls.push_back({cublasBaselineName(which), [lib, which](GemmRoundInputs& in) {
                           lib->run(which, {in.a.data_ptr(), in.b.data_ptr(), in.bColMajor.data_ptr(),
                                            in.c.data_ptr()});
                         }});
      }
      for (const std::string& note : cublas->notes()) result.notes.push_back(note);
    } catch (const std::exception& e) {
      result.notes.push_back(std::string("cuBLAS baselines not timed: ") + e.what());
      cublas.reset();
    }
  } else {
    result.notes.push_back("cuBLAS baselines need a CUDA device");
  }
#else
  result.notes.push_back("cuBLAS baselines need a CUDA build");
#endif

  std::vector<protocol::BaselineTiming> timings;
  const gpu_share::Exclusive alone;  // beside other runners (batch --timing-jobs): the GPU to these calls alone
  for (stats::GemmMethod method : stats::kGemmMethods) {
    try {
      const MethodTimes times = runGemmMethod(method, calls, inputsFor, device, s);
      for (auto& t : summarizeGemmMethod(method, calls, times)) timings.push_back(std::move(t));
    } catch (const std::exception& e) {
      result.notes.push_back(std::string(stats::gemmMethodName(method)) + " not timed: " + e.what());
      if (!deviceUsable(device)) break;  // a sticky CUDA error: nothing more can run in this process
    }
  }
  result.timings = protocol::withFasterLayouts(std::move(timings));
  return result;
}

}  // namespace ks::engine
