// SpeedupDistribution: sorted points, log2 bins (edges, membership, counts), levels, unplottable values.
#include "views/logic/speedup_distribution.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/view_logic/synthetic_run.h"

namespace ks {
namespace {

LoadedRun runWithSpeedups(const std::vector<double>& speedups) {
  RunFile run;
  for (std::size_t i = 0; i < speedups.size(); ++i) {
    Task t;
    t.level = 1 + static_cast<int>(i % 2);
    t.number = static_cast<int>(i);
    Candidate c;
    c.id = "c";
    Measurement m;
    m.speedup = speedups[i];
    c.measurements.push_back(m);
    t.candidates.push_back(c);
    run.tasks.push_back(t);
  }
  return LoadedRun(std::move(run));
}

TEST(SpeedupDistribution, SortsPointsAndRemembersRows) {
  const auto run = test::syntheticRun();
  const SpeedupDistribution d(*run, "default");
  ASSERT_EQ(d.points().size(), 4u);
  EXPECT_EQ(d.points().front().row, test::kRowB);
  EXPECT_EQ(d.points().back().row, test::kRowE);
  EXPECT_EQ(d.levels(), (std::vector<int>{1, 2}));
  EXPECT_EQ(d.pointsOfLevel(2).size(), 1u);
  EXPECT_EQ(SpeedupDistribution(*run, "cuda_graph").points().size(), 1u);
}

TEST(SpeedupDistribution, BinsAreHalfOctavesFromLowestToHighest) {
  const LoadedRun run = runWithSpeedups({1.0, 1.2, 2.0, 2.9, 8.5});
  const auto bins = SpeedupDistribution(run, "default").log2Bins();
  ASSERT_EQ(bins.size(), 7u);  // [1,1.41) [1.41,2) [2,2.83) [2.83,4) [4,5.66) [5.66,8) [8,11.3)
  EXPECT_DOUBLE_EQ(bins.front().low, 1.0);
  EXPECT_NEAR(bins[1].low, std::sqrt(2.0), 1e-12);
  EXPECT_EQ(bins[0].rows, (std::vector<int>{0, 1}));
  EXPECT_EQ(bins[2].rows, std::vector<int>{2});  // 2.0 sits on an edge: it opens its bin
  EXPECT_EQ(bins[3].rows, std::vector<int>{3});
  EXPECT_TRUE(bins[4].rows.empty());
  EXPECT_EQ(bins[6].rows, std::vector<int>{4});
}

TEST(SpeedupDistribution, WideRangesUseWiderBinsAndNonPositiveValuesAreCounted) {
  const LoadedRun run = runWithSpeedups({1e-4, 1.0, 5e4, 0.0, -2.0, NAN});
  const SpeedupDistribution d(run, "default");
  EXPECT_EQ(d.points().size(), 3u);
  EXPECT_EQ(d.unplottable(), 3);
  const auto bins = d.log2Bins();
  EXPECT_LE(bins.size(), 30u);
  std::size_t total = 0;
  for (const auto& bin : bins) total += bin.rows.size();
  EXPECT_EQ(total, 3u);
}

TEST(SpeedupDistribution, ManyRowsInChunksKeepEveryRowOnceAndEqualSpeedupsInRowOrder) {
  // Rows enough for several chunks (16 384 rows or more each) read on every core: the joined points are those
  // of one loop.
  std::vector<double> speedups;
  for (int i = 0; i < 40003; ++i) speedups.push_back(i % 7 == 0 ? 0.0 : 1.0 + (i % 5));
  const LoadedRun run = runWithSpeedups(speedups);
  const SpeedupDistribution d(run, "default");
  std::size_t expected = 0;
  for (double s : speedups) expected += s > 0;
  ASSERT_EQ(d.points().size(), expected);
  EXPECT_EQ(d.unplottable(), static_cast<int>(speedups.size() - expected));
  for (std::size_t i = 1; i < d.points().size(); ++i) {
    const auto& a = d.points()[i - 1];
    const auto& b = d.points()[i];
    ASSERT_TRUE(a.speedup < b.speedup || (a.speedup == b.speedup && a.row < b.row)) << "point " << i;
    EXPECT_DOUBLE_EQ(b.speedup, speedups[static_cast<std::size_t>(b.row)]);
  }
}

}  // namespace
}  // namespace ks
