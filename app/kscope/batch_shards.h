#pragma once
// The shard plan of a batch (core/cluster/shard_plan.h) over its entries, with each entry's expected cost:
// kCompileCost for a candidate that compiles code (batch_prebuild.h), kPlainCost otherwise. One function,
// used by `kscope batch --shard` to pick its entries and by `kscope slurm --status` to count each shard's.
#include <vector>

#include "app/kscope/batch_prebuild.h"

namespace ks::cli {

// The shard (0..count-1) of each entry, in the entries' order.
std::vector<int> batchShardPlan(const std::vector<BatchEntry>& entries, int count);

}  // namespace ks::cli
