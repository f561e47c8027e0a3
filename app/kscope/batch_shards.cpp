#include "app/kscope/batch_shards.h"

#include "core/runs/shard_plan.h"

namespace ks::cli {

std::vector<int> batchShardPlan(const std::vector<BatchEntry>& entries, int count) {
  std::vector<runs::ShardItem> items;
  items.reserve(entries.size());
  for (const BatchEntry& e : entries)
    items.push_back({e.task->key() + '\x1f' + e.candidate->id,
                     compilesCode(*e.candidate) ? runs::kCompileCost : runs::kPlainCost});
  return runs::assignShards(items, count);
}

}  // namespace ks::cli
