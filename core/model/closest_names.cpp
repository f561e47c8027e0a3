#include "core/model/closest_names.h"

#include <algorithm>
#include <cctype>

namespace ks {
namespace {

char folded(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool startsWithFolded(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (folded(text[i]) != folded(prefix[i])) return false;
  return true;
}

}  // namespace

std::size_t editDistance(std::string_view a, std::string_view b) {
  // One row of the Wagner-Fischer table at a time: row[j] is the distance of a[0..i) to b[0..j).
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const std::size_t substitute = diagonal + (folded(a[i - 1]) == folded(b[j - 1]) ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> closestNames(std::string_view word, const std::vector<std::string>& names,
                                      std::size_t most) {
  struct Near {
    std::size_t distance, index;
  };
  std::vector<Near> near;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::size_t d = editDistance(word, names[i]);
    const std::size_t allowed = std::max<std::size_t>(1, std::max(word.size(), names[i].size()) / 3);
    const bool started = word.size() >= 3 && startsWithFolded(names[i], word);
    if (d <= allowed || started) near.push_back({d, i});
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const Near& x, const Near& y) { return x.distance < y.distance; });
  std::vector<std::string> out;
  for (const Near& n : near) {
    if (out.size() == most || n.distance > near.front().distance) break;
    out.push_back(names[n.index]);
  }
  return out;
}

std::string alternatives(const std::vector<std::string>& names, std::string_view quote) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text.append(quote).append(names[i]).append(quote);
  }
  return text;
}

}  // namespace ks
