#include "views/logic/line_diff.h"

#include <algorithm>
#include <dtl/dtl.hpp>
#include <string>

namespace ks {
namespace {

// Lines as the editor shows them: split on '\n', a trailing "\r" ignored for comparison, and a final
// empty line after a trailing newline kept (the editor shows it too).
std::vector<std::string> splitLines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

int lookup(const std::vector<int>& map, int line) {
  if (map.empty()) return 0;
  return map[static_cast<std::size_t>(std::clamp(line, 0, static_cast<int>(map.size()) - 1))];
}

}  // namespace

LineDiff LineDiff::compute(std::string_view left, std::string_view right) {
  const std::vector<std::string> a = splitLines(left);
  const std::vector<std::string> b = splitLines(right);
  dtl::Diff<std::string> diff(a, b);
  if (a.size() + b.size() > 20000) diff.onHuge();
  diff.compose();

  LineDiff d;
  d.m_left.assign(a.size(), Status::Same);
  d.m_right.assign(b.size(), Status::Same);
  d.m_leftToRight.assign(a.size(), 0);
  d.m_rightToLeft.assign(b.size(), 0);

  std::vector<int> removed;  // the pending run of removed (left) and added (right) lines
  std::vector<int> added;
  int nextLeft = 0;
  int nextRight = 0;
  const auto flush = [&] {
    const std::size_t paired = std::min(removed.size(), added.size());
    for (std::size_t i = 0; i < removed.size(); ++i) {
      d.m_left[removed[i]] = i < paired ? Status::Changed : Status::Removed;
      d.m_leftToRight[removed[i]] = i < paired ? added[i] : nextRight;
    }
    for (std::size_t i = 0; i < added.size(); ++i) {
      d.m_right[added[i]] = i < paired ? Status::Changed : Status::Added;
      d.m_rightToLeft[added[i]] = i < paired ? removed[i] : nextLeft;
    }
    d.m_deletions += static_cast<int>(removed.size());
    d.m_insertions += static_cast<int>(added.size());
    removed.clear();
    added.clear();
  };
  for (const auto& [line, info] : diff.getSes().getSequence()) {
    if (info.type == dtl::SES_DELETE) {
      removed.push_back(static_cast<int>(info.beforeIdx - 1));
    } else if (info.type == dtl::SES_ADD) {
      added.push_back(static_cast<int>(info.afterIdx - 1));
    } else {
      nextLeft = static_cast<int>(info.beforeIdx - 1);
      nextRight = static_cast<int>(info.afterIdx - 1);
      flush();
      d.m_leftToRight[static_cast<std::size_t>(nextLeft)] = nextRight;
      d.m_rightToLeft[static_cast<std::size_t>(nextRight)] = nextLeft;
    }
  }
  nextLeft = static_cast<int>(a.size()) - 1;
  nextRight = static_cast<int>(b.size()) - 1;
  flush();
  return d;
}

int LineDiff::leftToRight(int leftLine) const { return lookup(m_leftToRight, leftLine); }
int LineDiff::rightToLeft(int rightLine) const { return lookup(m_rightToLeft, rightLine); }

}  // namespace ks
