#include "core/repair/unified_diff.h"

#include <algorithm>
#include <vector>

namespace ks::repair {
namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

struct Op {
  char kind;  // ' ', '-', '+'
  int a, b;   // line indexes in before / after (of the line itself for ' ' and '-' / '+')
};

}  // namespace

std::string unifiedDiff(const std::string& before, const std::string& after, const std::string& name,
                        int context) {
  if (before == after) return "";
  const std::vector<std::string> a = splitLines(before), b = splitLines(after);
  // Common prefix and suffix first: repairs change few lines of long programs.
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  const std::size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;
  // Longest common subsequence of the middle.
  std::vector<std::vector<int>> lcs(n + 1, std::vector<int>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;)
      lcs[i][j] =
          a[prefix + i] == b[prefix + j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
  std::vector<Op> ops;
  for (std::size_t i = 0; i < prefix; ++i) ops.push_back({' ', int(i), int(i)});
  std::size_t i = 0, j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
      ops.push_back({' ', int(prefix + i), int(prefix + j)});
      ++i, ++j;
    } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      ops.push_back({'-', int(prefix + i), int(prefix + j)});
      ++i;
    } else {
      ops.push_back({'+', int(prefix + i), int(prefix + j)});
      ++j;
    }
  }
  for (std::size_t k = 0; k < suffix; ++k)
    ops.push_back({' ', int(a.size() - suffix + k), int(b.size() - suffix + k)});

  std::string out = "--- a/" + name + "\n+++ b/" + name + "\n";
  const int count = static_cast<int>(ops.size());
  int k = 0;
  while (k < count) {
    while (k < count && ops[static_cast<std::size_t>(k)].kind == ' ') ++k;
    if (k == count) break;
    // A hunk: from `context` lines before this change to `context` lines after the last change that is
    // at most 2*context unchanged lines from the next.
    const int start = std::max(0, k - context);
    int end = k;
    for (int unchanged = 0; end < count; ++end) {
      if (ops[static_cast<std::size_t>(end)].kind == ' ') {
        if (++unchanged > 2 * context) break;
      } else {
        unchanged = 0;
      }
    }
    int last = end;
    while (last > k && ops[static_cast<std::size_t>(last - 1)].kind == ' ') --last;
    end = std::min(count, last + context);
    int aStart = -1, bStart = -1, aCount = 0, bCount = 0;
    std::string body;
    for (int x = start; x < end; ++x) {
      const Op& op = ops[static_cast<std::size_t>(x)];
      if (aStart < 0) aStart = op.a, bStart = op.b;
      if (op.kind != '+') ++aCount;
      if (op.kind != '-') ++bCount;
      const std::string& text =
          op.kind == '+' ? b[static_cast<std::size_t>(op.b)] : a[static_cast<std::size_t>(op.a)];
      body += op.kind + text + "\n";
    }
    out += "@@ -" + std::to_string(aCount ? aStart + 1 : aStart) + "," + std::to_string(aCount) + " +" +
           std::to_string(bCount ? bStart + 1 : bStart) + "," + std::to_string(bCount) + " @@\n" + body;
    k = end;
  }
  return out;
}

}  // namespace ks::repair
