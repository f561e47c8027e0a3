#include "core/engine/gemm_baselines.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/zeros.h>

#include <algorithm>
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

#include "core/engine/cuda_l2_method.h"
#include "core/engine/gemm_task.h"
#include "core/engine/gpu_share.h"
#include "core/engine/model_args.h"
#include "core/engine/model_pair.h"
#include "core/engine/phase_deadlines.h"
#include "core/engine/trial_clock.h"
#include "core/protocol/gemm_baselines.h"

namespace py = pybind11;

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

std::vector<protocol::BaselineTiming> timeCudaL2Method(stats::GemmMethod method, const std::vector<GemmCall>& calls,
                                                       const std::vector<py::object>& pyCalls,
                                                       const protocol::GemmRun& run, const c10::Device& device,
                                                       const GemmBaselineSettings& s) {
  std::vector<protocol::BaselineTiming> out;
  if (calls.size() < 2 || pyCalls.size() != calls.size()) return out;
  const std::uint64_t seed = methodSeed(s.seed, method);
  CudaL2Shape shape{run.m, run.n, run.k, 0, 0, 0};
  if (run.padded()) {
    shape.padM = run.paddedM - run.m;
    shape.padN = run.paddedN - run.n;
    shape.padK = run.paddedK - run.k;
  }
  const std::string where = device.str();
  CudaL2SessionSettings session;
  session.warmupSeconds = s.sessionWarmupSeconds;
  session.seconds = s.sessionSeconds;
  session.maxRounds = s.sessionMaxRounds;
  session.serverQps = method == stats::GemmMethod::CudaL2Server ? s.serverQps : 0;
  // CUDA-L2 runs its baselines in a shuffled order, one process each; here one session each, in an order
  // drawn from the seed (round 0 of the method's orders, over the baselines).
  const std::vector<std::size_t> order = stats::roundOrder(calls.size() - 1, seed, 0);
  out.resize(calls.size() - 1);
  for (std::size_t slot : order) {
    const std::size_t i = slot + 1;
    session.seed = seed + i;
    session.clock = CudaL2SessionSettings::Clock::Host;
    const CudaL2SessionTimes host = runCudaL2Session(pyCalls[i], pyCalls[0], shape, where, session);
    protocol::BaselineTiming& b = out[slot];
    b.baseline = calls[i].name;
    b.method = stats::gemmMethodName(method);
    b.clock = "host";
    b.rounds = host.rounds;
    b.baselineMs = b.hostBaselineMs = stats::summaryMs(method, host.baselineMs);
    b.candidateMs = b.hostCandidateMs = stats::summaryMs(method, host.candidateMs);
    b.speedup = stats::methodSpeedup(method, host.candidateMs, host.baselineMs);
    b.spread = stats::rateRatioSpread(host.candidateMs, host.baselineMs);
    if (method == stats::GemmMethod::CudaL2Offline && device.is_cuda()) {
      session.clock = CudaL2SessionSettings::Clock::Events;
      const CudaL2SessionTimes events = runCudaL2Session(pyCalls[i], pyCalls[0], shape, where, session);
      b.eventBaselineMs = stats::summaryMs(method, events.baselineMs);
      b.eventCandidateMs = stats::summaryMs(method, events.candidateMs);
      b.eventSpeedup = stats::methodSpeedup(method, events.candidateMs, events.baselineMs);
    }
  }
  return out;
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
    b.clock = "cuda-events";
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
  // KernelScope's two methods, then CUDA-L2's: per baseline an offline session, its events twin and a server
  // session (with gaps of mean 1/qps), each its warm-up and its seconds; three times that as the bound.
  const double sessions = 3.0 * 7 * (s.sessionWarmupSeconds + s.sessionSeconds + 2.0 / std::max(s.serverQps, 1.0));
  reporter.enter(protocol::Phase::Timing, kMinTimedDeadlineS * 2 + 2 * 3 * s.secondsPerMethod + 3 * sessions);
  std::vector<GemmCall> calls;
  std::vector<py::object> pyCalls;
  calls.push_back({"candidate", [candidate](GemmRoundInputs& in) {
                     at::Tensor out;
                     char message[1024] = {};
                     if (candidate(in.candidate.data(), 3, &out, message, sizeof message) != nvcc::kShimCallOk)
                       throw std::runtime_error(std::string("the candidate failed: ") + message);
                   }});
  // The same entry as CUDA-L2's harness calls it: f(a, b, b_col_major, c) from Python. The shim allocates its
  // own output (the GemmOut convention), so c is left as it is.
  pyCalls.push_back(py::cpp_function(
      [candidate](py::object a, py::object b, py::object bColMajor, py::object) {
        at::Tensor inputs[3];
        const py::object* given[3] = {&a, &b, &bColMajor};
        for (int i = 0; i < 3; ++i) {
          auto t = unwrapTensor(*given[i]);
          if (!t) throw py::type_error("the candidate takes tensors only");
          inputs[i] = *t;
        }
        at::Tensor out;
        char message[1024] = {};
        if (candidate(inputs, 3, &out, message, sizeof message) != nvcc::kShimCallOk)
          throw std::runtime_error(std::string("the candidate failed: ") + message);
      },
      py::name("candidate")));
  pyCalls.push_back(py::none());  // torch.matmul, which the session calls itself
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
        // As CUDA-L2's binding of the same call: tensors in, their data pointers to cuBLAS.
        pyCalls.push_back(py::cpp_function(
            [lib, which](py::object a, py::object b, py::object bColMajor, py::object c) {
              auto ta = unwrapTensor(a), tb = unwrapTensor(b), tbc = unwrapTensor(bColMajor), tc = unwrapTensor(c);
              if (!ta || !tb || !tbc || !tc) throw py::type_error("cuBLAS baselines take tensors only");
              lib->run(which, {ta->data_ptr(), tb->data_ptr(), tbc->data_ptr(), tc->data_ptr()});
            },
            py::name(cublasBaselineName(which))));
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

  // Only the baselines asked for (the candidate always): request option gemm_baselines.
  if (!s.baselines.empty()) {
    std::vector<GemmCall> kept{calls[0]};
    std::vector<py::object> keptPy{pyCalls[0]};
    for (std::size_t i = 1; i < calls.size(); ++i)
      if (std::find(s.baselines.begin(), s.baselines.end(), calls[i].name) != s.baselines.end()) {
        kept.push_back(calls[i]);
        keptPy.push_back(pyCalls[i]);
      }
    calls = std::move(kept);
    pyCalls = std::move(keptPy);
  }

  std::vector<protocol::BaselineTiming> timings;
  const gpu_share::Exclusive alone;  // beside other runners (batch --timing-jobs): the GPU to these calls alone
  for (stats::GemmMethod method : stats::kGemmMethods) {
    if (!s.methods.empty() &&
        std::find(s.methods.begin(), s.methods.end(), stats::gemmMethodName(method)) == s.methods.end())
      continue;
    try {
      if (stats::recordedMode(method)[0] != '\0') {  // CUDA-L2's methods, as its harness makes the calls
        for (auto& t : timeCudaL2Method(method, calls, pyCalls, run, device, s)) timings.push_back(std::move(t));
        continue;
      }
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
