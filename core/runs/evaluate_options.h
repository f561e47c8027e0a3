#pragma once
// The `evaluate` options a client sends for the user's choices (docs/runner-protocol.md, "Options").
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
};

protocol::Options evaluateOptions(const RunChoices& choices);

}  // namespace ks::runs
