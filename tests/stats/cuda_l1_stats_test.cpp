// CUDA-L1's statistic (cuda_l1_stats.h): a trial's score is the ratio of means, the figure the mean of the
// scores, its spread the 95 % half-width of that mean.
#include "core/stats/cuda_l1_stats.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ks::stats {
namespace {

TEST(CudaL1Stats, ATrialsScoreIsTheRatioOfMeansNotOfMedians) {
  // medians 1 and 1 (ratio 1); means 4/3 and 1: eval_cuda.py's score is 1.333
  EXPECT_NEAR(cudaL1Score({1, 1, 2}, {1, 1, 1}), 4.0 / 3.0, 1e-12);
  EXPECT_EQ(cudaL1Score({}, {1}), 0);
  EXPECT_EQ(cudaL1Score({1}, {0, 0}), 0);
}

TEST(CudaL1Stats, TheFigureIsTheMeanOfTheScoresWithItsSpread) {
  EXPECT_NEAR(cudaL1Figure({2, 3, 4}), 3, 1e-12);
  EXPECT_EQ(cudaL1Figure({}), 0);
  // sd 1, n 3: 1.96 / sqrt(3) / 3
  EXPECT_NEAR(cudaL1Spread({2, 3, 4}), 1.96 / std::sqrt(3.0) / 3, 1e-12);
  EXPECT_EQ(cudaL1Spread({5}), 0);
  EXPECT_EQ(cudaL1Spread({2, 2, 2}), 0);
}

}  // namespace
}  // namespace ks::stats
