#pragma once
// The timing methods a GEMM candidate is timed with against its baselines, as bookkeeping without a GPU:
// which method is which, the order of the calls in each round, the server method's arrival gaps, and each
// method's rule for turning per-call times into one number and a speedup. The runner
// (core/engine/gemm_baselines.h) makes the calls; everything it decides about them is decided here, so that
// it is the same on every machine and tested on the CPU.
//
// CUDA-L2's own methods, as its release's benchmarking_offline.py / benchmarking_server.py do them:
//  - offline: the kernel and one baseline at a time; rounds back to back, each on fresh inputs in a shuffled
//    order, each call timed alone by the host clock (device synchronized before and after). The number is
//    the mean over calls of each call's TFLOP/s; the speedup is the kernel's mean TFLOP/s over the
//    baseline's (so it is a ratio of harmonic-mean times, not of medians).
//  - server: the same, with an exponential gap (mean 1/qps) slept after each round, as requests arriving
//    at a target rate would leave the GPU idle between calls (clocks and caches cool down).
// How the runner makes those calls, as CUDA-L2's harness does: core/engine/cuda_l2_method.h.
// KernelScope's own: rounds on the same inputs, shuffled order, CUDA events around each call; the L2 cache
// flushed before each call ("kscope-l2-flushed") or not ("kscope-l2-warm"); the number is the median time
// and the speedup the ratio of medians (as evaluate's timing, docs/runner-protocol.md).
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ks::stats {

enum class GemmMethod { CudaL2Offline, CudaL2Server, KscopeL2Flushed, KscopeL2Warm };

inline constexpr GemmMethod kGemmMethods[] = {GemmMethod::CudaL2Offline, GemmMethod::CudaL2Server,
                                              GemmMethod::KscopeL2Flushed, GemmMethod::KscopeL2Warm};

// "cuda-l2-offline", "cuda-l2-server", "kscope-l2-flushed", "kscope-l2-warm"
const char* gemmMethodName(GemmMethod m);
// The CUDA-L2 release's mode of the same method ("offline" | "server"), or "" for KernelScope's own.
const char* recordedMode(GemmMethod m);
bool freshInputsEachRound(GemmMethod m);  // CUDA-L2's methods
bool flushesL2(GemmMethod m);             // kscope-l2-flushed only

// Each round's order of `count` calls: a permutation that depends only on (seed, round), the same on every
// machine and compiler (its own Fisher-Yates over mt19937_64; std::shuffle's is unspecified).
std::vector<std::size_t> roundOrder(std::size_t count, std::uint64_t seed, std::uint64_t round);

// The server method's gaps between rounds: exponential with mean 1/qps seconds, drawn from mt19937_64 by
// inversion, so the sequence too depends only on the seed.
class ArrivalGaps {
 public:
  ArrivalGaps(double qps, std::uint64_t seed);
  double nextSeconds();
  double meanSeconds() const { return 1.0 / qps_; }

 private:
  double qps_;
  std::mt19937_64 bits_;
};

// One method's summary of one function's per-call times (ms): the mean for CUDA-L2's methods, the median
// for KernelScope's. Empty times: 0.
double summaryMs(GemmMethod m, const std::vector<double>& ms);
// The candidate's speedup over a baseline by the method's rule: CUDA-L2's mean(1/candidate)/mean(1/baseline)
// (its mean TFLOP/s ratio; the FLOPs cancel), KernelScope's median(baseline)/median(candidate). 0 when
// either side has no times or a zero time.
double methodSpeedup(GemmMethod m, const std::vector<double>& candidateMs, const std::vector<double>& baselineMs);

// CUDA-L2's speedup (a ratio of mean rates) and its noise: the 95 % half-width relative to the speedup,
// 1.96·sqrt(se_c² + se_b²) with se the standard error of each side's mean rate relative to that mean. 0 when
// either side has fewer than two calls or a zero time.
double rateRatioSpread(const std::vector<double>& candidateMs, const std::vector<double>& baselineMs);

}  // namespace ks::stats
