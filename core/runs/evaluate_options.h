#pragma once
// The `evaluate` options a client sends for the user's choices (docs/runner-protocol.md, "Options").
#include <optional>
#include <string>
#include <vector>

#include "core/protocol/request.h"

namespace ks::runs {

struct RunChoices {
  std::string device;  // "cuda" | "cpu"; empty: the runner's choice (cuda when it has a GPU)
  int trials = 0;      // timed trials per model; 0: the runner's default
  int seeds = 0;       // correctness seeds; 0: the runner's default
  std::string arch;    // nvcc -arch of native builds ("sm_90a"); empty: the runner's GPU's
  // GEMM tasks: CUDA-L2's sessions' warm-up and timed seconds (< 0: the runner's default), and the baselines
  // and methods to time (empty: all).
  double gemmWarmupSeconds = -1, gemmSeconds = -1;
  std::vector<std::string> gemmBaselines, gemmMethods;
  // Python tasks: CUDA-L1's own evaluation too, with these trial counts (cudaL1EvalByDefault says when).
  std::optional<protocol::Options::CudaL1EvalOptions> cudaL1Eval;
};

protocol::Options evaluateOptions(const RunChoices& choices);

// A candidate of the CUDA-L1 release (format "cuda-l1", or a run imported from it: candidate id "cuda-l1")
// re-run on a GPU is evaluated by CUDA-L1's own method beside KernelScope's, so that the number to set beside
// the paper is measured in the same run. On CPU CUDA-L1's harness does not run at all.
bool cudaL1EvalByDefault(const std::string& runFormat, const std::string& candidateId, const std::string& device);

}  // namespace ks::runs
