#pragma once
// A correct GEMM candidate against its baselines by every timing method (the methods' bookkeeping and rules:
// core/stats/gemm_methods.h; the cuBLAS calls: cublas_baselines.h). All calls of a round share identical
// inputs in this process: fresh ones each round for CUDA-L2's methods (drawn like the task's, gemm_task.h,
// from seed + 1 + round), the task's seed's for KernelScope's. Each call is timed alone: the device
// synchronized, the trial clock (CUDA events + host clock) around it, synchronized again.
//
// The candidate is called through its native entry (no Python in between), torch.matmul as at::matmul_out,
// the cuBLAS baselines through cuBLAS's C API: each with what its library needs and nothing more.
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/engine/event_sink.h"
#include "core/engine/native_task.h"
#include "core/protocol/evaluate_result.h"
#include "core/stats/gemm_methods.h"

namespace ks::engine {

struct GemmBaselineSettings {
  std::uint64_t seed = 42;        // round orders, fresh inputs, arrival gaps
  // KernelScope's methods: measured rounds stop after this long (at least minRounds, at most maxRounds).
  double secondsPerMethod = 1.0;
  int warmupRounds = 3, minRounds = 5, maxRounds = 200;
  // CUDA-L2's methods (cuda_l2_method.h): each (kernel, baseline) session's warm-up and timed seconds;
  // sessionMaxRounds bounds both phases (tests), CUDA-L2's own stop on time alone.
  double sessionWarmupSeconds = 0.5, sessionSeconds = 1.0;
  int sessionMaxRounds = 1000000;
  double serverQps = 100;      // cuda-l2-server's target rate (the release's README example)
  int autotuneAlgorithms = 16;  // cuBLASLt heuristic algorithms auto-tuning times
  std::vector<std::string> baselines;  // the release column names to time; empty: every one
  std::vector<std::string> methods;    // the methods to time (gemmMethodName); empty: every one
};

// The inputs of one round: the task's model arguments and the baselines' a (M×K), b (K×N),
// b_col_major (N×K) and an output c (M×N), all float16.
struct GemmRoundInputs {
  std::vector<at::Tensor> candidate;  // the three the candidate's entry takes (padded copies when padded)
  at::Tensor a, b, bColMajor, c;
};
using GemmInputsFor = std::function<GemmRoundInputs(std::int64_t seed)>;

struct GemmCall {
  std::string name;  // "candidate" first, then the release's column names
  std::function<void(GemmRoundInputs&)> call;
};

// Per function, the method's per-call times (official clock and host clock, ms) of its measured rounds.
struct MethodTimes {
  std::vector<std::vector<double>> ms, hostMs;
  int rounds = 0;
};

// Runs `method` over `calls` in one C++ loop, every function in each round (device-agnostic: on CPU the clock
// is the wall clock and nothing is flushed). The runner times KernelScope's methods this way; CUDA-L2's go
// through timeCudaL2Method.
MethodTimes runGemmMethod(stats::GemmMethod method, const std::vector<GemmCall>& calls,
                          const GemmInputsFor& inputsFor, const c10::Device& device,
                          const GemmBaselineSettings& settings);

// CUDA-L2's method `method` (offline or server): one session per baseline of calls[1...] against calls[0]
// (cuda_l2_method.h), in an order drawn from the seed; `pyCalls` are the same functions as Python callables
// f(a, b, b_col_major, c) (None for torch.matmul). The offline method also times each session by CUDA events
// (BaselineTiming::event*).
std::vector<protocol::BaselineTiming> timeCudaL2Method(stats::GemmMethod method, const std::vector<GemmCall>& calls,
                                                       const std::vector<pybind11::object>& pyCalls,
                                                       const protocol::GemmRun& run, const c10::Device& device,
                                                       const GemmBaselineSettings& settings);

// calls[0] (the candidate) against each other call, by the method's rule.
std::vector<protocol::BaselineTiming> summarizeGemmMethod(stats::GemmMethod method,
                                                          const std::vector<GemmCall>& calls,
                                                          const MethodTimes& times);

// Everything: torch.matmul and (CUDA builds on a CUDA device) the six cuBLAS baselines, by the four methods,
// with the derived -max columns. A baseline that fails is left out with a note; on a CPU build the note says
// "cuBLAS baselines need a CUDA build".
protocol::GemmBaselines timeGemmBaselines(NativeShimCall candidate, const protocol::GemmRun& run,
                                          const c10::Device& device, const GemmBaselineSettings& settings,
                                          PhaseReporter& reporter);

}  // namespace ks::engine
