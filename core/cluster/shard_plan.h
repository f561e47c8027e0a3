#pragma once
// Which candidates one shard of a batch runs (docs/cluster.md): `kscope batch --shard i/N`, a Slurm array
// task or a Kubernetes indexed job. The rule is one function of the whole candidate list, so every shard
// computes the same plan on its own, without talking to the others:
// - disjoint and complete: every item lies in exactly one of the N shards;
// - deterministic and stable: the plan depends only on the items' keys and costs, not on their order, the
//   machine or what a shard already finished (a resumed shard gets the same items again);
// - balanced by expected cost: a candidate that compiles code costs kCompileCost, others kPlainCost; items
//   are dealt, most expensive first, to the shard with the least cost so far (greedy longest-processing-
//   time), so no shard carries more than the lightest one plus one item's cost.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::cluster {

struct Shard {
  int index = 0;  // 0-based
  int count = 1;
  bool operator==(const Shard&) const = default;
};

// "i/N" with 0 <= i < N; nullopt (and `error` set) otherwise.
std::optional<Shard> parseShard(std::string_view text, std::string* error = nullptr);

// The shard of an array job, from its environment (`getenv` returns null for an unset name):
// SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN when set) of SLURM_ARRAY_TASK_COUNT; else Kubernetes'
// JOB_COMPLETION_INDEX of KSCOPE_SHARD_COUNT (Kubernetes does not export the count: set it to the job's
// completions). `source` names the variables used; `error` says why variables that are set do not make a
// shard (then shard is empty); neither set: all three empty.
struct EnvironmentShard {
  std::optional<Shard> shard;
  std::string source, error;
};
EnvironmentShard shardFromEnvironment(const std::function<const char*(const char*)>& getenv);

inline constexpr double kCompileCost = 4.0;  // builds (1-4 minutes for a CUDA-L2 kernel) dominate
inline constexpr double kPlainCost = 1.0;

struct ShardItem {
  std::string key;  // unique, e.g. task key + '\x1f' + candidate id
  double cost = kPlainCost;
};

// The shard (0..count-1) of each item, in the items' order.
std::vector<int> assignShards(const std::vector<ShardItem>& items, int count);

}  // namespace ks::cluster
