#pragma once
// CUDA-L2's own timing methods (offline and server), done the way its benchmarking_offline.py /
// benchmarking_server.py do them, so that a number labelled "cuda-l2-offline" is the number CUDA-L2's
// harness gives on the same GPU (cross-checked by bench/gpu/crosscheck.sh; docs/method-fidelity.md):
//  - one session per baseline: the kernel and that one baseline, nothing else in the rounds (CUDA-L2 runs
//    each baseline in a process of its own, in a shuffled order; here the sessions run one after the other in
//    the runner's process, in an order drawn from the seed);
//  - a warm-up of `warmupSeconds` of rounds in the fixed order [baseline, kernel], then `seconds` of rounds,
//    each in a shuffled order;
//  - each round draws a and b (torch.randn, float16, on the device), then, in the round's order, each
//    function's own copies (a clone, or for a padded kernel zero-padded copies; b's column-major copy; an
//    output c from torch.randn; b_col_major holds bᵀ's bytes in b's K×N shape, as CUDA-L2's as_col_major makes
//    it), so the function called last finds its inputs most recently written;
//  - each call: c zeroed, the device synchronized, the host clock read, the call made from Python (torch.matmul
//    as `torch.matmul(a, b, out=c)`, every other function through its Python binding), the device
//    synchronized, the host clock read again. Only the host clock: launch and Python call overheads are in
//    the time, as they are in CUDA-L2's;
//  - the server method sleeps an exponential gap (mean 1/qps) after every round, warm-up included;
//  - the number: each function's mean TFLOP/s over its calls; the speedup the ratio of the means
//    (stats::methodSpeedup).
// The loop is Python run by the runner's interpreter, so the call path (Python, a binding, the C++ entry) is
// CUDA-L2's. `clock = Events` times the same protocol with CUDA events around each call instead of the host
// clock (the host clock still read, outside nothing else): what the host clock adds, measured, for the
// explanation of a difference between methods (docs/method-fidelity.md).
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ks::engine {

struct CudaL2Shape {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t padM = 0, padN = 0, padK = 0;  // the kernel's zero padding (its tile), 0 when unpadded
};

struct CudaL2SessionSettings {
  double warmupSeconds = 0.5, seconds = 1.0;
  double serverQps = 0;     // > 0: the server method, with its gaps
  std::uint64_t seed = 42;  // torch's generator and the round orders
  enum class Clock { Host, Events } clock = Clock::Host;
  int maxRounds = 1000000;  // a bound for tests; CUDA-L2's sessions stop on time alone
};

struct CudaL2SessionTimes {
  std::vector<double> baselineMs, candidateMs;  // per measured call, by the session's clock
  int rounds = 0, warmupRounds = 0;
};

// One session of `baseline` (a Python callable f(a, b, b_col_major, c), or None for torch.matmul) against
// `candidate` (the same signature) on `device` ("cuda", "cuda:1" or "cpu": on CPU only the bookkeeping runs,
// torch.matmul in float32). Throws pybind11::error_already_set when a call raises.
CudaL2SessionTimes runCudaL2Session(const pybind11::object& baseline, const pybind11::object& candidate,
                                    const CudaL2Shape& shape, const std::string& device,
                                    const CudaL2SessionSettings& settings);

}  // namespace ks::engine
