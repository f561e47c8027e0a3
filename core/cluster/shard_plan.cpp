#include "core/cluster/shard_plan.h"

#include <algorithm>
#include <charconv>
#include <numeric>

#include "core/hash/sha256.h"

namespace ks::cluster {
namespace {

std::optional<long> parseCount(std::string_view text) {
  long v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<Shard> parseShard(std::string_view text, std::string* error) {
  auto fail = [&](const std::string& why) -> std::optional<Shard> {
    if (error) *error = why;
    return std::nullopt;
  };
  const auto slash = text.find('/');
  if (slash == std::string_view::npos) return fail("a shard is i/N, e.g. 0/4 (got \"" + std::string(text) + "\")");
  const auto index = parseCount(text.substr(0, slash));
  const auto count = parseCount(text.substr(slash + 1));
  if (!index || !count) return fail("a shard is i/N with whole numbers (got \"" + std::string(text) + "\")");
  if (*count < 1 || *count > 1000000) return fail("the shard count N must be 1 to 1000000 (got " + std::to_string(*count) + ")");
  if (*index < 0 || *index >= *count)
    return fail("the shard index i must be 0 to N-1 = " + std::to_string(*count - 1) + " (got " +
                std::to_string(*index) + ")");
  return Shard{int(*index), int(*count)};
}

EnvironmentShard shardFromEnvironment(const std::function<const char*(const char*)>& getenv) {
  EnvironmentShard result;
  auto read = [&](const char* indexName, const char* countName, const char* minName) {
    const char* index = getenv(indexName);
    const char* count = getenv(countName);
    result.source = std::string(indexName) + "/" + countName;
    if (!count) {
      result.error = std::string(indexName) + " is set but " + countName + " is not";
      return;
    }
    auto i = parseCount(index ? index : "");
    const auto n = parseCount(count);
    const char* min = minName ? getenv(minName) : nullptr;
    const auto m = parseCount(min ? min : "0");
    if (!i || !n || !m) {
      result.error = std::string(indexName) + "=" + (index ? index : "") + ", " + countName + "=" + count +
                     (min ? std::string(", ") + minName + "=" + min : "") + ": not whole numbers";
      return;
    }
    std::string why;
    result.shard = parseShard(std::to_string(*i - *m) + "/" + std::to_string(*n), &why);
    if (!result.shard) result.error = result.source + ": " + why;
  };
  if (getenv("SLURM_ARRAY_TASK_ID"))
    read("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN");
  else if (getenv("JOB_COMPLETION_INDEX"))
    read("JOB_COMPLETION_INDEX", "KSCOPE_SHARD_COUNT", nullptr);
  return result;
}

std::vector<int> assignShards(const std::vector<ShardItem>& items, int count) {
  count = std::max(1, count);
  // The deal order: most expensive first; among equals by a hash of the key (spreads a task's candidates,
  // which sit side by side in a file, over the shards), then the key itself. Never the input order.
  std::vector<std::string> hashes;
  hashes.reserve(items.size());
  for (const ShardItem& item : items) hashes.push_back(hash::sha256Hex(item.key));
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (items[a].cost != items[b].cost) return items[a].cost > items[b].cost;
    if (hashes[a] != hashes[b]) return hashes[a] < hashes[b];
    return items[a].key < items[b].key;
  });
  std::vector<double> load(std::size_t(count), 0.0);
  std::vector<int> shard(items.size(), 0);
  for (std::size_t i : order) {
    const auto lightest = std::min_element(load.begin(), load.end());  // the first of equals: lowest index
    shard[i] = int(lightest - load.begin());
    *lightest += items[i].cost;
  }
  return shard;
}

}  // namespace ks::cluster
