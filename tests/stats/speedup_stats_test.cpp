#include "core/stats/speedup_stats.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "core/formats/cuda_l1_reader.h"
#include "ks_test_paths.h"

namespace ks {
namespace {

TEST(ComputeStats, HandCheckedVector) {
  const SpeedupStats s = computeStats({4, 1, 3, 2});
  EXPECT_EQ(s.count, 4u);
  EXPECT_EQ(s.withSpeedup, 4u);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.p25, 1.75);
  EXPECT_DOUBLE_EQ(s.p75, 3.25);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_NEAR(s.geomean, std::pow(24.0, 0.25), 1e-12);
  EXPECT_DOUBLE_EQ(s.shareAbove, 0.75);
}

// numpy.percentile([3, 1, 4, 1, 5, 9, 2, 6], [25, 50, 75]) == [1.75, 3.5, 5.25]
TEST(ComputeStats, PercentilesMatchNumpyLinear) {
  const SpeedupStats s = computeStats({3, 1, 4, 1, 5, 9, 2, 6});
  EXPECT_DOUBLE_EQ(s.p25, 1.75);
  EXPECT_DOUBLE_EQ(s.median, 3.5);
  EXPECT_DOUBLE_EQ(s.p75, 5.25);
  const SpeedupStats odd = computeStats({0.5, 15.0, 1.2, 9.9, 3.7});
  EXPECT_DOUBLE_EQ(odd.p25, 1.2);
  EXPECT_DOUBLE_EQ(odd.median, 3.7);
  EXPECT_DOUBLE_EQ(odd.p75, 9.9);
}

TEST(ComputeStats, ThresholdIsStrict) {
  const SpeedupStats s = computeStats({1.01, 1.0100001, 0.99});
  EXPECT_DOUBLE_EQ(s.shareAbove, 1.0 / 3.0);
  const SpeedupStats one = computeStats({1.01});
  EXPECT_DOUBLE_EQ(one.median, 1.01);
  EXPECT_DOUBLE_EQ(one.p25, 1.01);
  EXPECT_DOUBLE_EQ(one.shareAbove, 0);
}

TEST(ComputeStats, EmptyIsAllZero) {
  const SpeedupStats s = computeStats({});
  EXPECT_EQ(s.withSpeedup, 0u);
  EXPECT_EQ(s.mean, 0);
  EXPECT_EQ(s.median, 0);
  EXPECT_EQ(s.geomean, 0);
  EXPECT_EQ(s.shareAbove, 0);
}

TEST(ComputeStats, NonFiniteAndNonPositiveValues) {
  const double inf = std::numeric_limits<double>::infinity();
  const SpeedupStats s = computeStats({std::nan(""), 2, -1, inf, 0});
  EXPECT_EQ(s.withSpeedup, 5u);
  EXPECT_DOUBLE_EQ(s.geomean, 2);       // only 2 is finite and positive
  EXPECT_DOUBLE_EQ(s.shareAbove, 0.4);  // 2 and inf, of 5
  EXPECT_DOUBLE_EQ(s.min, -1);
  EXPECT_EQ(s.max, inf);
  EXPECT_DOUBLE_EQ(s.median, 1);  // of -1, 0, 2, inf
  EXPECT_DOUBLE_EQ(s.p25, -0.25);
  EXPECT_EQ(s.mean, inf);
  const SpeedupStats onlyNan = computeStats({std::nan("")});
  EXPECT_EQ(onlyNan.withSpeedup, 1u);
  EXPECT_EQ(onlyNan.median, 0);
}

Candidate candidate(std::optional<std::string> code, std::vector<std::pair<std::string, double>> speedups,
                    const std::string& origin = "recorded") {
  Candidate c;
  c.code = std::move(code);
  for (const auto& [baseline, speedup] : speedups) {
    Measurement m;
    m.baseline = baseline;
    m.speedup = speedup;
    m.origin = origin;
    c.measurements.push_back(m);
  }
  return c;
}

TEST(Summarize, CountsPerLevelAndBaseline) {
  RunFile run;
  Task& a = run.tasks.emplace_back();
  a.level = 1;
  a.candidates.push_back(candidate("x", {{"default", 2.0}, {"cudnn", 1.0}}));
  a.candidates.push_back(candidate(std::nullopt, {}));
  a.candidates.push_back(candidate("y", {{"default", 8.0}}, "measured"));  // not a recorded claim
  Task& b = run.tasks.emplace_back();
  b.level = 2;
  b.candidates.push_back(candidate("z", {{"default", 0.5}}));
  Task& empty = run.tasks.emplace_back();
  empty.level = 3;

  const RunSummary s = summarize(run);
  EXPECT_EQ(s.overall.count, 4u);
  EXPECT_EQ(s.overall.withCode, 3u);
  EXPECT_EQ(s.overall.withSpeedup, 2u);
  EXPECT_DOUBLE_EQ(s.overall.geomean, 1.0);  // sqrt(2 * 0.5)
  EXPECT_DOUBLE_EQ(s.overall.shareAbove, 0.5);
  ASSERT_EQ(s.byLevel.size(), 3u);
  EXPECT_EQ(s.byLevel.at(1).count, 3u);
  EXPECT_EQ(s.byLevel.at(1).withSpeedup, 1u);
  EXPECT_DOUBLE_EQ(s.byLevel.at(1).median, 2.0);
  EXPECT_EQ(s.byLevel.at(2).withSpeedup, 1u);
  EXPECT_EQ(s.byLevel.at(3).count, 0u);
  ASSERT_EQ(s.byBaseline.size(), 2u);  // "measured" adds no baseline of its own
  EXPECT_EQ(s.byBaseline.at("cudnn").count, 4u);
  EXPECT_EQ(s.byBaseline.at("cudnn").withSpeedup, 1u);
  EXPECT_EQ(s.byBaseline.at("default").withSpeedup, s.overall.withSpeedup);
}

TEST(Summarize, ABaselineTimedInTwoModesIsTwoSeries) {
  RunFile run;
  Task& t = run.tasks.emplace_back();
  for (double offline : {1.0, 2.0, 4.0}) {
    Candidate& c = t.candidates.emplace_back();
    c.code = "k";
    c.measurements.push_back({.baseline = "torch.matmul", .speedup = offline, .mode = "offline"});
    c.measurements.push_back({.baseline = "torch.matmul", .speedup = 2 * offline, .mode = "server"});
  }
  const RunSummary s = summarize(run);
  ASSERT_EQ(s.byBaseline.size(), 2u);
  EXPECT_DOUBLE_EQ(s.byBaseline.at("torch.matmul (offline)").median, 2.0);
  EXPECT_DOUBLE_EQ(s.byBaseline.at("torch.matmul (server)").median, 4.0);
  EXPECT_EQ(s.byBaseline.at("torch.matmul (server)").withSpeedup, 3u);
  EXPECT_EQ(s.overall.withSpeedup, 0u) << "nothing is recorded against \"default\"";
  EXPECT_EQ(baselineLabel("cudnn", ""), "cudnn");
}

// ---- The real CUDA-L1 release against an independent computation over the raw JSON ---------------------

struct Expected {
  std::size_t count = 0, withCode = 0;
  std::vector<double> values;
};

// numpy's linear percentile, written out directly.
double percentileOf(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  const double rank = p * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(rank);
  const double frac = rank - static_cast<double>(lo);
  return lo + 1 < v.size() ? v[lo] * (1 - frac) + v[lo + 1] * frac : v[lo];
}

void expectMatches(const SpeedupStats& got, const Expected& e, const std::string& what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(got.count, e.count);
  EXPECT_EQ(got.withCode, e.withCode);
  ASSERT_EQ(got.withSpeedup, e.values.size());
  ASSERT_FALSE(e.values.empty());
  long double sum = 0, product = 1;
  std::size_t above = 0;
  for (double v : e.values) {
    sum += v;
    product *= v;
    if (v > 1.01) ++above;
  }
  const auto n = static_cast<double>(e.values.size());
  auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); };
  EXPECT_PRED2(near, got.mean, static_cast<double>(sum / n));
  EXPECT_PRED2(near, got.geomean, static_cast<double>(std::pow(product, 1.0L / n)));
  EXPECT_PRED2(near, got.median, percentileOf(e.values, 0.5));
  EXPECT_PRED2(near, got.p25, percentileOf(e.values, 0.25));
  EXPECT_PRED2(near, got.p75, percentileOf(e.values, 0.75));
  EXPECT_EQ(got.min, *std::min_element(e.values.begin(), e.values.end()));
  EXPECT_EQ(got.max, *std::max_element(e.values.begin(), e.values.end()));
  EXPECT_DOUBLE_EQ(got.shareAbove, static_cast<double>(above) / n);
}

TEST(Summarize, RealCudaL1ReleaseMatchesAnIndependentComputation) {
  const std::filesystem::path file = std::filesystem::path(KS_SHARED_DIR) / "datasets/cuda-l1/h100.jsonl";
  if (!std::filesystem::exists(file))
    GTEST_SKIP() << "CUDA-L1 dataset not found at " << file
                 << " (expected ../shared/datasets next to the repo)";

  const std::map<std::string, std::string> baselines = {
      {"score_default", "default"},
      {"score_torch_compile_default", "torch_compile_default"},
      {"score_torch_compile_reduce_overhead", "torch_compile_reduce_overhead"},
      {"score_cuda_graph", "cuda_graph"},
      {"score_cudnn", "cudnn"}};
  Expected overall;
  std::map<int, Expected> byLevel;
  std::map<std::string, Expected> byBaseline;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const auto row = nlohmann::json::parse(line);
    const bool hasCode = !row["custom_code"].is_null();
    Expected& level = byLevel[row["level_id"].get<int>()];
    for (Expected* e : {&overall, &level}) {
      ++e->count;
      e->withCode += hasCode ? 1 : 0;
      if (!row["score_default"].is_null()) e->values.push_back(row["score_default"].get<double>());
    }
    for (const auto& [key, baseline] : baselines) {
      Expected& e = byBaseline[baseline];
      ++e.count;
      e.withCode += hasCode ? 1 : 0;
      if (!row[key].is_null()) e.values.push_back(row[key].get<double>());
    }
  }

  const RunFile run = readCudaL1(file);
  ASSERT_TRUE(run.issues.empty());
  const RunSummary s = summarize(run);
  EXPECT_EQ(overall.count, 250u);
  EXPECT_EQ(overall.withCode, 227u);
  expectMatches(s.overall, overall, "overall");
  ASSERT_EQ(s.byLevel.size(), byLevel.size());
  for (const auto& [level, e] : byLevel)
    expectMatches(s.byLevel.at(level), e, "level " + std::to_string(level));
  ASSERT_EQ(s.byBaseline.size(), byBaseline.size());
  for (const auto& [baseline, e] : byBaseline) expectMatches(s.byBaseline.at(baseline), e, baseline);
}

}  // namespace
}  // namespace ks
