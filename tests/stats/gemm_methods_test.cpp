// The GEMM timing methods' bookkeeping (core/stats/gemm_methods.h): shuffled orders by seed, exponential
// arrival gaps, and each method's rule for a number and a speedup.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/stats/gemm_methods.h"

namespace ks::stats {
namespace {

TEST(GemmMethods, NamesAndTheRecordedModeEachPairsWith) {
  EXPECT_STREQ(gemmMethodName(GemmMethod::CudaL2Offline), "cuda-l2-offline");
  EXPECT_STREQ(gemmMethodName(GemmMethod::CudaL2Server), "cuda-l2-server");
  EXPECT_STREQ(gemmMethodName(GemmMethod::KscopeL2Flushed), "kscope-l2-flushed");
  EXPECT_STREQ(gemmMethodName(GemmMethod::KscopeL2Warm), "kscope-l2-warm");
  EXPECT_STREQ(recordedMode(GemmMethod::CudaL2Offline), "offline");
  EXPECT_STREQ(recordedMode(GemmMethod::CudaL2Server), "server");
  EXPECT_STREQ(recordedMode(GemmMethod::KscopeL2Warm), "");
  EXPECT_TRUE(freshInputsEachRound(GemmMethod::CudaL2Server));
  EXPECT_FALSE(freshInputsEachRound(GemmMethod::KscopeL2Flushed));
  EXPECT_TRUE(flushesL2(GemmMethod::KscopeL2Flushed));
  EXPECT_FALSE(flushesL2(GemmMethod::CudaL2Offline));
}

TEST(GemmMethods, RoundOrderIsAPermutationFixedBySeedAndRound) {
  for (std::uint64_t round = 0; round < 50; ++round) {
    const auto order = roundOrder(8, 20261125, round);
    EXPECT_EQ(order, roundOrder(8, 20261125, round)) << "round " << round;  // deterministic
    auto sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < 8; ++i) EXPECT_EQ(sorted[i], i);
  }
  // Another seed or another round gives another order (8! orders: a repeat in 50 would be a broken shuffle).
  std::set<std::vector<std::size_t>> seen;
  for (std::uint64_t round = 0; round < 50; ++round) seen.insert(roundOrder(8, 7, round));
  EXPECT_GE(seen.size(), 49u);
  EXPECT_NE(roundOrder(8, 1, 0), roundOrder(8, 2, 0));
  // Pinned values: mt19937_64 and seed_seq are specified exactly by the standard, so the order must not change
  // with the standard library or the machine (a run's order_seed says how to replay it).
  EXPECT_EQ(roundOrder(8, 20261125, 0), (std::vector<std::size_t>{4, 0, 2, 7, 3, 1, 5, 6}));
  EXPECT_EQ(roundOrder(1, 5, 3), std::vector<std::size_t>{0});
  EXPECT_TRUE(roundOrder(0, 5, 3).empty());
}

TEST(GemmMethods, EveryFunctionIsFirstAboutEquallyOften) {
  // 8 functions over 8000 rounds: each should lead ~1000 times; a biased shuffle (e.g. the naive one) would
  // not. 5 standard deviations (sqrt(1000 * 7/8) ~ 30) is 150: with a fixed seed this never flakes.
  std::vector<int> first(8, 0);
  for (std::uint64_t round = 0; round < 8000; ++round) ++first[roundOrder(8, 99, round)[0]];
  for (int count : first) EXPECT_NEAR(count, 1000, 150);
}

TEST(GemmMethods, ArrivalGapsAreExponentialWithTheTargetMean) {
  ArrivalGaps gaps(100.0, 42);  // 100 queries per second: mean gap 10 ms
  EXPECT_DOUBLE_EQ(gaps.meanSeconds(), 0.01);
  const int n = 200000;
  double sum = 0, sumSq = 0;
  int belowMean = 0;
  for (int i = 0; i < n; ++i) {
    const double g = gaps.nextSeconds();
    ASSERT_GE(g, 0.0);
    sum += g;
    sumSq += g * g;
    belowMean += g < 0.01;
  }
  const double mean = sum / n, var = sumSq / n - mean * mean;
  EXPECT_NEAR(mean, 0.01, 0.01 * 0.01);               // within 1 % (standard error 0.22 %)
  EXPECT_NEAR(std::sqrt(var), 0.01, 0.01 * 0.02);     // exponential: standard deviation = mean
  EXPECT_NEAR(belowMean / double(n), 1 - std::exp(-1.0), 0.005);  // P(gap < mean) = 1 - 1/e
  // The sequence depends only on the seed.
  EXPECT_NEAR(ArrivalGaps(100, 42).nextSeconds(), 0.014071320984121439, 1e-15);
  ArrivalGaps a(50, 3), b(50, 3), c(50, 4);
  const double first = a.nextSeconds();
  EXPECT_DOUBLE_EQ(first, b.nextSeconds());
  EXPECT_NE(first, c.nextSeconds());
}

TEST(GemmMethods, CudaL2AveragesRatesKscopeTakesMedians) {
  // Candidate 1 ms and 3 ms, baseline 2 ms twice.
  const std::vector<double> candidate{1, 3}, baseline{2, 2};
  // CUDA-L2: mean rate of the candidate (1 + 1/3) / 2 = 2/3, of the baseline 1/2: speedup 4/3.
  EXPECT_NEAR(methodSpeedup(GemmMethod::CudaL2Offline, candidate, baseline), 4.0 / 3.0, 1e-12);
  EXPECT_NEAR(methodSpeedup(GemmMethod::CudaL2Server, candidate, baseline), 4.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(summaryMs(GemmMethod::CudaL2Offline, candidate), 2.0);  // mean time
  // KernelScope: medians 2 and 2: speedup 1.
  EXPECT_DOUBLE_EQ(methodSpeedup(GemmMethod::KscopeL2Warm, candidate, baseline), 1.0);
  EXPECT_DOUBLE_EQ(summaryMs(GemmMethod::KscopeL2Flushed, {5, 1, 3}), 3.0);
  EXPECT_DOUBLE_EQ(summaryMs(GemmMethod::KscopeL2Flushed, {4, 1, 3, 2}), 2.5);
  // Nothing to compare, or a zero time: no speedup.
  EXPECT_EQ(methodSpeedup(GemmMethod::CudaL2Offline, {}, baseline), 0);
  EXPECT_EQ(methodSpeedup(GemmMethod::CudaL2Offline, {0, 1}, baseline), 0);
  EXPECT_EQ(methodSpeedup(GemmMethod::KscopeL2Warm, {0}, baseline), 0);
}

TEST(GemmMethods, TheRateRatiosSpreadIsItsTwoMeansStandardErrorsCombined) {
  // Candidate rates 1 and 1/2 per ms (times 1, 2): mean 3/4, sample sd sqrt(1/8), se sqrt(1/16) = 1/4,
  // relative 1/3. Baseline times 4, 4: no spread. 1.96 * 1/3.
  EXPECT_NEAR(rateRatioSpread({1, 2}, {4, 4}), 1.96 / 3.0, 1e-12);
  // Both sides the same relative error: sqrt(2) times one.
  EXPECT_NEAR(rateRatioSpread({1, 2}, {2, 4}), 1.96 * std::sqrt(2.0) / 3.0, 1e-12);
  // More calls of the same spread: smaller by sqrt(n).
  const double two = rateRatioSpread({1, 2}, {4, 4});
  const double eight = rateRatioSpread({1, 2, 1, 2, 1, 2, 1, 2}, {4, 4, 4, 4, 4, 4, 4, 4});
  EXPECT_NEAR(eight / two, std::sqrt((1.0 / 8.0 / 8.0 * 8.0 / 7.0) / (1.0 / 8.0 / 2.0 * 2.0)), 1e-12);
  // Not enough to say: 0.
  EXPECT_EQ(rateRatioSpread({1}, {4, 4}), 0);
  EXPECT_EQ(rateRatioSpread({1, 0}, {4, 4}), 0);
}

}  // namespace
}  // namespace ks::stats
