#pragma once
// Sorting a million rows by a number: a stable LSD radix sort on 64-bit keys, eleven bits a pass (six passes,
// every digit's counts taken in one read), passes whose digit is the same for every item skipped. A million
// rows take tens of milliseconds, where std::sort through a comparator took hundreds. Used by the task
// table's sort (CandidateFilterProxy) and the speedup distribution.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ks::radix {

// Ascending order of doubles as unsigned integers; NaN (no number) below every number, -0 with 0.
inline std::uint64_t doubleKey(double value) {
  if (std::isnan(value)) return 0;
  const auto bits = std::bit_cast<std::uint64_t>(value == 0 ? 0.0 : value);
  return (bits >> 63) ? ~bits : bits | (std::uint64_t{1} << 63);
}

inline std::uint64_t intKey(std::int64_t value) {
  return static_cast<std::uint64_t>(value) ^ (std::uint64_t{1} << 63);
}

// Sorts `items` by keyOf(item), stably (items with equal keys keep their order).
template <typename T, typename KeyOf>
void sortBy(std::vector<T>& items, KeyOf keyOf) {
  constexpr int kBits = 11, kPasses = (64 + kBits - 1) / kBits;
  constexpr std::size_t kDigits = std::size_t{1} << kBits;
  struct Item {
    std::uint64_t key;
    std::size_t index;
  };
  std::vector<Item> a(items.size()), b(items.size());
  std::vector<std::size_t> count(kDigits * kPasses, 0);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::uint64_t k = keyOf(items[i]);
    a[i] = {k, i};
    for (int pass = 0; pass < kPasses; ++pass)
      ++count[static_cast<std::size_t>(pass) * kDigits + ((k >> (pass * kBits)) & (kDigits - 1))];
  }
  for (int pass = 0; pass < kPasses; ++pass) {
    std::size_t* c = count.data() + static_cast<std::size_t>(pass) * kDigits;
    if (std::any_of(c, c + kDigits, [&](std::size_t n) { return n == a.size(); })) continue;
    std::size_t start = 0;
    for (std::size_t d = 0; d < kDigits; ++d) start += std::exchange(c[d], start);
    for (const Item& item : a) b[c[(item.key >> (pass * kBits)) & (kDigits - 1)]++] = item;
    a.swap(b);
  }
  std::vector<T> sorted;
  sorted.reserve(items.size());
  for (const Item& item : a) sorted.push_back(std::move(items[item.index]));
  items = std::move(sorted);
}

}  // namespace ks::radix
