#pragma once
// A small run built in code for the view tests, so they do not depend on a reader or a data set.
//   row 0  L1/1  1_Square_matrix_multiplication_  candidate a   1.5× default, 1.2× cuda_graph
//   row 1  L1/1                                    candidate b   0.8× default
//   row 2  L1/2  2_ReLU                            candidate c   3.0×, with a recorded analysis
//   row 3  L2/5  5_Conv2d_ReLU                     candidate d   no program, no speedup
//   row 4  L2/9  9_Matmul_scale                    candidate e   17×, load_inline CUDA source, one hack flag
//   row 5  L3/7  7_MLP                             no candidate
#include <memory>
#include <string>
#include <vector>

#include "core/runs/measured_run.h"
#include "views/logic/loaded_run.h"

namespace ks::test {

inline constexpr int kRowA = 0, kRowB = 1, kRowC = 2, kRowD = 3, kRowE = 4, kRowNone = 5;

std::shared_ptr<const LoadedRun> syntheticRun();
// The 1-based line of the first line of `text` containing `needle` (0 when absent).
int lineContaining(const std::string& text, const std::string& needle);
// A run of `candidates` rows over 3 levels with varied speedups, for filter and sort timings.
std::shared_ptr<const LoadedRun> largeRun(int candidates);

// Store ids for results made in tests, increasing across every helper, so newer means a higher id.
std::int64_t nextResultId();
// A correct re-run on cpu with one passing seed, timed at `speedup` (wall clock, CV 3.1 %), of the program
// with `hash`, whose probes raised `flags`.
runs::MeasuredRun timedRun(double speedup, const std::string& hash = "sha256:recorded",
                           std::vector<protocol::RuntimeFlag> flags = {});

}  // namespace ks::test
