#include "app/kscope/batch_shards.h"

#include "core/cluster/shard_plan.h"

namespace ks::cli {

std::vector<int> batchShardPlan(const std::vector<BatchEntry>& entries, int count) {
  std::vector<cluster::ShardItem> items;
  items.reserve(entries.size());
  for (const BatchEntry& e : entries)
    items.push_back({e.task->key() + '\x1f' + e.candidate->id,
                     compilesCode(*e.candidate) ? cluster::kCompileCost : cluster::kPlainCost});
  return cluster::assignShards(items, count);
}

}  // namespace ks::cli
