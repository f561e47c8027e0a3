// CUDA-L1's method beside KernelScope's in words (cuda_l1_gap.h): what it gave, the steps between the two
// figures only beyond noise and each a number of the run, and a verdict disagreement said in both checks'
// terms.
#include "core/runs/cuda_l1_gap.h"

#include <gtest/gtest.h>

namespace ks::runs {
namespace {

protocol::EvaluateResult run(double own, double seed, double flushed) {
  protocol::EvaluateResult r;
  r.correctness.passed = true;
  r.correctness.seeds = {{42, true, 1e-6, 1e-6, 1e-5, 1e-5, ""}};
  protocol::Timing t;
  t.warmup = 5;
  t.trials = 4;
  t.speedup = own;
  // medians 2.0 and 1.0; means 2.25 and 1.0
  t.reference.trialsMs = {2, 2, 2, 3};
  t.candidate.trialsMs = {1, 1, 1, 1};
  t.speedupCi95 = protocol::Timing::Interval{own * 0.98, own * 1.02};
  r.timing = t;
  protocol::CudaL1Eval e;
  e.check = {10, 10, true, 0.01, 0.01, "", 0, 0, 2e-4, 1e-4, 0.02};
  e.clock = "cuda-events";
  e.globalTrials = 7;
  e.perfTrials = 10;
  e.warmup = 3;
  e.scores = {seed * 0.99, seed * 1.01};
  e.speedup = seed;
  e.spread = 0.03;
  e.flushedSpeedup = flushed;
  r.cudaL1 = e;
  return r;
}

TEST(CudaL1Gap, TheSummarySaysTheCheckTheFigureItsSpreadAndTheFlushedTwin) {
  const protocol::EvaluateResult r = run(2.0, 2.9, 2.5);
  EXPECT_EQ(cudaL1Summary(*r.cudaL1),
            "CUDA-L1's method (eval_pipeline): check passed 10 of 10 trials (atol = 0.01, rtol = 0.01); 2.90× "
            "(mean of 2 trial scores, ±3 %); with the L2 flushed before each call 2.50×");
}

TEST(CudaL1Gap, BeyondNoiseEachStepBetweenTheTwoFiguresIsANumberOfTheRun) {
  const protocol::EvaluateResult r = run(2.0, 2.9, 2.5);
  const auto g = cudaL1Gap(r);
  ASSERT_TRUE(g);
  EXPECT_DOUBLE_EQ(g->seed, 2.9);
  EXPECT_DOUBLE_EQ(g->own, 2.0);
  ASSERT_TRUE(g->meanRatio);
  EXPECT_DOUBLE_EQ(*g->meanRatio, 2.25);
  EXPECT_EQ(g->text,
            "CUDA-L1's method gives 2.90× (±3 %), KernelScope's 2.00× (L2 flushed, medians). With the L2 flushed "
            "before each call CUDA-L1's protocol gives 2.50× (the flush: −14 %). KernelScope's own trials as a ratio "
            "of means give 2.25× (the protocol — a fresh clone of the inputs per call, one set of models, Python's "
            "collector paused, 5 warm-up calls: −10 %), and as the ratio of medians KernelScope reports, 2.00× (the "
            "statistic: −11 %). Beside CUDA-L1's paper quote CUDA-L1's; for the kernel's own speed KernelScope's.");
  EXPECT_EQ(cudaL1Lines(r).size(), 2u);
}

TEST(CudaL1Gap, WithinNoiseOrWithoutEitherFigureThereIsNoGap) {
  EXPECT_FALSE(cudaL1Gap(run(2.0, 2.08, 2.0)));  // 4 %: within 5 %
  protocol::EvaluateResult noisy = run(2.0, 2.3, 2.2);
  noisy.cudaL1->spread = 0.2;  // 15 % apart, but CUDA-L1's own spread is 20 %
  EXPECT_FALSE(cudaL1Gap(noisy));
  protocol::EvaluateResult untimed = run(2.0, 3.0, 0);
  untimed.cudaL1->speedup = 0;
  EXPECT_FALSE(cudaL1Gap(untimed));
  untimed = run(2.0, 3.0, 0);
  untimed.timing.reset();
  EXPECT_FALSE(cudaL1Gap(untimed));
  EXPECT_TRUE(cudaL1Lines(protocol::EvaluateResult{}).empty());
}

TEST(CudaL1Gap, AVerdictDisagreementNamesTheCheckThatFailedAndByHowMuch) {
  // KernelScope's check failed, CUDA-L1's passed: KernelScope's tolerance is the tighter one here.
  protocol::EvaluateResult r = run(2.0, 2.0, 0);
  r.timing.reset();
  r.correctness.passed = false;
  r.correctness.seeds = {{42, true, 1e-6, 1e-6, 1e-5, 1e-5, ""}, {43, false, 3.1e-3, 0.2, 1e-5, 1e-5, "outside"}};
  r.cudaL1->check.maxDiff = 3.1e-3;
  r.cudaL1->check.worstShare = 0.31;
  EXPECT_EQ(cudaL1VerdictGap(r),
            "KernelScope's check failed on seed 43: max abs error 0.0031 against atol 1e-05, rtol 1e-05; CUDA-L1's "
            "check (torch.allclose, atol = 0.01, rtol = 0.01, on 10 inputs of its own seeds) passed all of them, its "
            "largest difference 0.0031 at 31 % of its bound.");
  // KernelScope's passed, CUDA-L1's failed, and the reference writes into its input.
  protocol::EvaluateResult l1Fails = run(2.0, 2.0, 0);
  l1Fails.cudaL1->check = {10, 2, false, 0.01, 0.01, "Value mismatch to the original model", 3, 1608637542, 0.5, 0.2, 4.5};
  l1Fails.cudaL1->speedup = 0;
  l1Fails.correctness.mutations = {{"reference", 0, 42}};
  EXPECT_EQ(cudaL1VerdictGap(l1Fails),
            "KernelScope's check passed 1 seed; CUDA-L1's check (torch.allclose, atol = 0.01, rtol = 0.01, on 10 "
            "inputs of its own seeds) failed at trial 3 (seed 1608637542): Value mismatch to the original model, "
            "largest difference 0.5, 4.5× its bound. The reference changes an input in place, and CUDA-L1's check "
            "gives the candidate the tensors the reference changed (KernelScope gives each model its own copy).");
  EXPECT_EQ(cudaL1Summary(*l1Fails.cudaL1),
            "CUDA-L1's method (eval_pipeline): check FAILED at trial 3 of 10: Value mismatch to the original model "
            "(atol = 0.01, rtol = 0.01)");
  EXPECT_EQ(cudaL1VerdictGap(run(2.0, 2.0, 0)), "");  // both passed
}

}  // namespace
}  // namespace ks::runs
