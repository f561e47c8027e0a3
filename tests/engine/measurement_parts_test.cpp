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
