// The arithmetic and parsing parts of a measurement: trial statistics, the trial budget, the inputs kept per
// seed and the profiler's kernel list.
#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <cmath>

#include "core/engine/kernel_profile.h"
#include "core/engine/measurement.h"
#include "core/engine/model_pair.h"
#include "core/engine/phase_deadlines.h"
#include "core/engine/trial_stats.h"
#include "tests/engine/python_environment.h"

using namespace ks::engine;

TEST(TrialStats, QuantilesInterpolateLikeNumpy) {
  EXPECT_DOUBLE_EQ(quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(quantile({1, 2, 3, 4}, 0.75), 3.25);
  EXPECT_DOUBLE_EQ(quantile({7}, 0.9), 7);
  EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
}

TEST(TrialStats, SummaryOfBothClocks) {
  const auto s = summarizeTrials({{1.0, 1.5}, {2.0, 2.1}, {3.0, 3.2}, {4.0, 4.4}});
  EXPECT_DOUBLE_EQ(s.medianMs, 2.5);
  EXPECT_DOUBLE_EQ(s.minMs, 1.0);
  EXPECT_DOUBLE_EQ(s.iqrMs, 1.5);
  EXPECT_NEAR(s.cv, std::sqrt(5.0 / 3.0) / 2.5, 1e-12);
  EXPECT_DOUBLE_EQ(s.hostMedianMs, 2.65);
  EXPECT_DOUBLE_EQ(s.hostMinMs, 1.5);
  EXPECT_NEAR(s.clockGapMs, 0.3, 1e-12);
  EXPECT_DOUBLE_EQ(s.maxMs, 4.0);
  EXPECT_TRUE(std::isnan(summarizeTrials({{1.0, 1.0}}).cv));
  // Every trial, in the order run: where the slow ones fell is the first question about a high CV.
  const auto spiky = summarizeTrials({{1.0, 1.1}, {9.0, 9.2}, {1.1, 1.2}});
  EXPECT_EQ(spiky.trialsMs, (std::vector<double>{1.0, 9.0, 1.1}));
  EXPECT_DOUBLE_EQ(spiky.maxMs, 9.0);
  EXPECT_DOUBLE_EQ(spiky.medianMs, 1.1);
}

TEST(TrialStats, SpeedupIntervalBracketsTheSpeedupAndNarrowsWithSteadierTrials) {
  // Reference ~2 ms, candidate ~1 ms, with alternating noise of 1 % and of 20 %.
  std::vector<double> ref, cand, noisyRef, noisyCand;
  for (int i = 0; i < 50; ++i) {
    const double wiggle = (i % 5) - 2.0;  // -2 .. 2
    ref.push_back(2.0 * (1 + 0.005 * wiggle));
    cand.push_back(1.0 * (1 - 0.005 * wiggle * ((i % 3) - 1)));
    noisyRef.push_back(2.0 * (1 + 0.1 * wiggle));
    noisyCand.push_back(1.0 * (1 - 0.1 * wiggle * ((i % 3) - 1)));
  }
  const auto steady = speedupInterval(ref, cand, 42);
  const auto noisy = speedupInterval(noisyRef, noisyCand, 42);
  ASSERT_TRUE(steady && noisy);
  const double speedup = quantile(ref, 0.5) / quantile(cand, 0.5);
  EXPECT_LE(steady->low, speedup);
  EXPECT_GE(steady->high, speedup);
  EXPECT_LT(steady->high - steady->low, noisy->high - noisy->low);
  EXPECT_GT(noisy->high - noisy->low, 0.05);
  EXPECT_LT(steady->high - steady->low, 0.05);
  // Seeded: the same trials give the same interval; identical trials give a point.
  EXPECT_EQ(*speedupInterval(noisyRef, noisyCand, 42), *noisy);
  const auto point = speedupInterval({3, 3, 3}, {1.5, 1.5, 1.5}, 7);
  ASSERT_TRUE(point);
  EXPECT_DOUBLE_EQ(point->low, 2.0);
  EXPECT_DOUBLE_EQ(point->high, 2.0);
  // Not enough, or unpaired, trials: no interval.
  EXPECT_FALSE(speedupInterval({1}, {1}, 42));
  EXPECT_FALSE(speedupInterval({1, 2, 3}, {1, 2}, 42));
}

TEST(TrialStats, SpeedupIntervalKeepsEachTrialsTwoCallsTogether) {
  // Both models three times slower in the second half (a slower CPU, another process): every trial's ratio
  // is 2, and since each resample draws whole trials its two medians come from the same trials, so the
  // interval is the point 2. Drawing each model's trials on their own would pair a slow median with a fast one
  // and spread the interval over 0.67 .. 6.
  std::vector<double> ref, cand;
  for (int i = 0; i < 40; ++i) {
    const double slow = i < 20 ? 1.0 : 3.0;
    ref.push_back(2.0 * slow);
    cand.push_back(1.0 * slow);
  }
  const auto ci = speedupInterval(ref, cand, 1);
  ASSERT_TRUE(ci);
  EXPECT_DOUBLE_EQ(ci->low, 2.0);
  EXPECT_DOUBLE_EQ(ci->high, 2.0);
}

TEST(KernelProfile, BusyTimeMergesOverlappingKernelsAndLeavesTheMarkersOut) {
  const std::string trace = R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "spin_kernel", "ts": 0, "dur": 5, "args": {"stream": 7, "correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "a", "ts": 10, "dur": 10, "args": {"stream": 7, "correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "b", "ts": 15, "dur": 10, "args": {"stream": 9, "correlation": 3}},
    {"ph": "X", "cat": "kernel", "name": "c", "ts": 16, "dur": 2, "args": {"stream": 11, "correlation": 4}},
    {"ph": "X", "cat": "kernel", "name": "d", "ts": 40, "dur": 5, "args": {"stream": 7, "correlation": 5}},
    {"ph": "X", "cat": "kernel", "name": "spin_kernel", "ts": 1000, "dur": 5, "args": {"stream": 7, "correlation": 6}}
  ]})";
  // a, b and c cover 10..25 (15 us), d 5 us more; the markers' 10 us and the gaps do not count.
  EXPECT_NEAR(kernelBusyMs(readChromeTrace(trace)), 0.020, 1e-12);
  EXPECT_EQ(kernelBusyMs(readChromeTrace("not json")), 0);
}

TEST(KernelProfile, ChromeTraceKernelsGroupByNameAndStreamInLaunchOrder) {
  const std::string trace = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1, "dur": 50},
    {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 30, "dur": 10.5, "args": {"stream": 7, "device": 0}},
    {"ph": "X", "cat": "Kernel", "name": "relu", "ts": 20, "dur": 2, "args": {"stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 40, "dur": 9.5, "args": {"stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 45, "dur": 1, "args": {"stream": 13}}
  ]})";
  const auto kernels = kernelsFromChromeTrace(readChromeTrace(trace), "candidate");
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0], (ks::protocol::KernelLaunch{"candidate", "relu", 7, 1, 2}));
  EXPECT_EQ(kernels[1], (ks::protocol::KernelLaunch{"candidate", "gemm", 7, 2, 20}));
  EXPECT_EQ(kernels[2], (ks::protocol::KernelLaunch{"candidate", "gemm", 13, 1, 1}));
  EXPECT_FALSE(readChromeTrace("not json").valid);
  EXPECT_TRUE(kernelsFromChromeTrace(readChromeTrace("not json"), "reference").empty());
}

TEST(PhaseDeadlines, TimedPhasesScaleWithMeasuredCalls) {
  EXPECT_DOUBLE_EQ(scaledDeadline(10, 0.0), kMinTimedDeadlineS);
  EXPECT_DOUBLE_EQ(scaledDeadline(55, 2.0), kMinTimedDeadlineS + 330);
}

TEST(TrialBudget, DefaultTrialsShrinkToTheBudgetButNotBelowTheFloor) {
  EXPECT_EQ(trialCount(50, true, 0.001), 50);   // 1 ms pairs: 50 trials fit in 2 s
  EXPECT_EQ(trialCount(50, true, 0.1), 20);     // 100 ms pairs: 20 fit
  EXPECT_EQ(trialCount(50, true, 1.0), 10);     // 1 s pairs: the floor
  EXPECT_EQ(trialCount(50, false, 1.0), 50);    // asked for: always as asked
  EXPECT_EQ(trialCount(5, true, 1.0), 5);       // a default below the floor stays
  EXPECT_EQ(trialCount(50, true, 0.0), 50);     // nothing measured: the default
}

TEST(InputMemo, EachSeedIsDrawnOnceAndEveryCallerGetsItsOwnTensors) {
  (void)ks::engine::testing::testEngine();  // a hit seeds torch again: Python must be up
  ModelPair pair;
  int draws = 0;
  pair.inputs = [&draws](std::int64_t seed) -> Outcome<ModelArgs> {
    ++draws;
    ModelArgs args(1);
    args[0].tensor = at::full({4}, static_cast<double>(seed));
    return args;
  };
  memoizeInputs(pair, 1 << 20);
  auto first = std::get<ModelArgs>(pair.inputs(42));
  first[0].tensor.add_(1);  // a caller changing its copy changes nothing for the next one
  const auto again = std::get<ModelArgs>(pair.inputs(42));
  EXPECT_EQ(draws, 1);
  EXPECT_TRUE(at::equal(again[0].tensor, at::full({4}, 42.0)));
  EXPECT_NE(again[0].tensor.data_ptr(), first[0].tensor.data_ptr());
  (void)pair.inputs(43);
  EXPECT_EQ(draws, 2);

  ModelPair tight;
  int tightDraws = 0;
  tight.inputs = [&tightDraws](std::int64_t) -> Outcome<ModelArgs> {
    ++tightDraws;
    ModelArgs args(1);
    args[0].tensor = at::zeros({1024});
    return args;
  };
  memoizeInputs(tight, 1024);  // 4 KiB of inputs do not fit in 1 KiB: drawn every time
  (void)tight.inputs(42);
  (void)tight.inputs(42);
  EXPECT_EQ(tightDraws, 2);
}
