#pragma once
// CUDA-L1's own evaluation of a re-run (EvaluateResult::cudaL1, core/engine/cuda_l1_method.h) beside
// KernelScope's, in words, from what the run measured (never a guess):
//  - what CUDA-L1's method gave (its check, its figure with its spread, the same protocol with the L2
//    flushed);
//  - where its figure and KernelScope's differ by more than their noise, the steps between them, each a
//    number of the run: CUDA-L1's protocol → the same with the L2 flushed before each call (the flush) →
//    KernelScope's own trials as a ratio of means (the protocol: fresh clones per call, one set of models,
//    the collector paused) → KernelScope's figure, a ratio of medians (the statistic);
//  - where the two correctness checks disagree, which one failed and by how much, in both checks' terms.
// `kscope run`, the GUI's measurements and candidate header, and the report show these; docs/method-fidelity.md
// says how CUDA-L1's method compares with CUDA-L1's own harness on the GPU.
#include <optional>
#include <string>
#include <vector>

#include "core/protocol/evaluate_result.h"

namespace ks::runs {

struct CudaL1Gap {
  double seed = 0, own = 0;         // CUDA-L1's figure and KernelScope's speedup
  double noise = 0;                 // the larger of the two relative spreads and 5 %
  std::optional<double> flushed;    // CUDA-L1's protocol with the L2 flushed
  std::optional<double> meanRatio;  // KernelScope's trials, mean(reference) / mean(candidate)
  std::string text;
};

// One line on what CUDA-L1's method gave: "CUDA-L1's method (eval_pipeline): check passed 10 of 10 trials
// (atol = rtol = 0.01); 2.31× (mean of 7 trial scores, ±3 %); with the L2 flushed 2.20×". Empty without it.
std::string cudaL1Summary(const protocol::CudaL1Eval& e);

// nullopt when either figure is missing or they agree within noise.
std::optional<CudaL1Gap> cudaL1Gap(const protocol::EvaluateResult& r);

// Where KernelScope's correctness verdict and CUDA-L1's check differ: which failed, by how much, in both
// checks' terms. Empty when they agree or CUDA-L1's check did not run.
std::string cudaL1VerdictGap(const protocol::EvaluateResult& r);

// The summary, the verdict gap and the figure gap, those that apply, in that order.
std::vector<std::string> cudaL1Lines(const protocol::EvaluateResult& r);

}  // namespace ks::runs
