#include "core/cluster/shard_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>

namespace ks::cluster {
namespace {

std::vector<ShardItem> items(int plain, int compiling) {
  std::vector<ShardItem> v;
  for (int i = 0; i < plain; ++i) v.push_back({"L1/" + std::to_string(i) + "\x1f" + "r1", kPlainCost});
  for (int i = 0; i < compiling; ++i) v.push_back({"L2/" + std::to_string(i) + "\x1f" + "cuda", kCompileCost});
  return v;
}

TEST(ParseShard, ReadsIndexOfCount) {
  EXPECT_EQ(parseShard("0/1"), (Shard{0, 1}));
  EXPECT_EQ(parseShard("2/3"), (Shard{2, 3}));
  std::string why;
  EXPECT_FALSE(parseShard("3/3", &why));
  EXPECT_NE(why.find("0 to N-1 = 2"), std::string::npos) << why;
  EXPECT_FALSE(parseShard("1/0", &why));
  EXPECT_FALSE(parseShard("-1/2", &why));
  EXPECT_FALSE(parseShard("1", &why));
  EXPECT_FALSE(parseShard("a/2", &why));
  EXPECT_FALSE(parseShard("1/2x", &why));
}

TEST(ShardFromEnvironment, SlurmArrayLessItsMinimum) {
  std::map<std::string, std::string> env = {{"SLURM_ARRAY_TASK_ID", "5"}, {"SLURM_ARRAY_TASK_COUNT", "3"},
                                            {"SLURM_ARRAY_TASK_MIN", "4"}};
  auto get = [&](const char* n) { return env.count(n) ? env[n].c_str() : nullptr; };
  EnvironmentShard s = shardFromEnvironment(get);
  ASSERT_TRUE(s.shard) << s.error;
  EXPECT_EQ(*s.shard, (Shard{1, 3}));
  EXPECT_EQ(s.source, "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT");
  env.erase("SLURM_ARRAY_TASK_MIN");
  s = shardFromEnvironment(get);
  EXPECT_FALSE(s.shard);  // 5 of 3
  EXPECT_NE(s.error.find("0 to N-1"), std::string::npos) << s.error;
}

TEST(ShardFromEnvironment, KubernetesIndexNeedsACount) {
  std::map<std::string, std::string> env = {{"JOB_COMPLETION_INDEX", "2"}};
  auto get = [&](const char* n) { return env.count(n) ? env[n].c_str() : nullptr; };
  EnvironmentShard s = shardFromEnvironment(get);
  EXPECT_FALSE(s.shard);
  EXPECT_NE(s.error.find("KSCOPE_SHARD_COUNT"), std::string::npos) << s.error;
  env["KSCOPE_SHARD_COUNT"] = "4";
  s = shardFromEnvironment(get);
  ASSERT_TRUE(s.shard) << s.error;
  EXPECT_EQ(*s.shard, (Shard{2, 4}));
}

TEST(ShardFromEnvironment, NothingSetIsNoShard) {
  EnvironmentShard s = shardFromEnvironment([](const char*) -> const char* { return nullptr; });
  EXPECT_FALSE(s.shard);
  EXPECT_TRUE(s.error.empty());
  EXPECT_TRUE(s.source.empty());
}

TEST(AssignShards, DisjointCompleteAndIndependentOfOrder) {
  std::vector<ShardItem> v = items(40, 13);
  const std::vector<int> plan = assignShards(v, 3);
  ASSERT_EQ(plan.size(), v.size());
  std::map<std::string, int> byKey;
  for (std::size_t i = 0; i < v.size(); ++i) {
    ASSERT_GE(plan[i], 0);
    ASSERT_LT(plan[i], 3);
    byKey[v[i].key] = plan[i];
  }
  // The same items in another order (a file with its lines moved) get the same shards.
  std::mt19937 rng(7);
  std::shuffle(v.begin(), v.end(), rng);
  const std::vector<int> again = assignShards(v, 3);
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(again[i], byKey[v[i].key]) << v[i].key;
}

TEST(AssignShards, BalancedByCostNotCount) {
  const std::vector<ShardItem> v = items(30, 10);  // total cost 30 + 40 = 70
  for (int n : {1, 2, 3, 4, 7}) {
    const std::vector<int> plan = assignShards(v, n);
    std::vector<double> load(std::size_t(n), 0);
    std::vector<int> compiling(std::size_t(n), 0);
    for (std::size_t i = 0; i < v.size(); ++i) {
      load[std::size_t(plan[i])] += v[i].cost;
      compiling[std::size_t(plan[i])] += v[i].cost == kCompileCost;
    }
    const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
    EXPECT_LE(*hi - *lo, kCompileCost) << n << " shards";
    // The builds are spread too: no shard holds more than its share of them, rounded up.
    for (int c : compiling) EXPECT_LE(c, (10 + n - 1) / n) << n << " shards";
  }
}

TEST(AssignShards, MoreShardsThanItemsLeavesSomeEmpty) {
  const std::vector<ShardItem> v = items(2, 0);
  const std::vector<int> plan = assignShards(v, 5);
  EXPECT_NE(plan[0], plan[1]);
  EXPECT_EQ(std::set<int>(plan.begin(), plan.end()).size(), 2u);
}

}  // namespace
}  // namespace ks::cluster
