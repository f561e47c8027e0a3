#pragma once
// A line diff between two texts (dtl, Myers' O(ND) algorithm): the status of every line on each side, the
// alignment between the sides (for synchronized scrolling) and git-style counts. A run of removed lines
// followed by added lines (or the reverse) pairs up as changed lines.
#include <cstdint>
#include <string_view>
#include <vector>

namespace ks {

class LineDiff {
 public:
  enum class Status : std::uint8_t { Same, Added, Removed, Changed };

  LineDiff() = default;
  static LineDiff compute(std::string_view left, std::string_view right);

  const std::vector<Status>& left() const { return m_left; }    // per left line (0-based)
  const std::vector<Status>& right() const { return m_right; }  // per right line (0-based)
  int leftToRight(int leftLine) const;  // the right line shown beside left line `leftLine` (0-based)
  int rightToLeft(int rightLine) const;
  int insertions() const { return m_insertions; }  // right lines not in the left text
  int deletions() const { return m_deletions; }    // left lines not in the right text
  bool identical() const { return m_insertions == 0 && m_deletions == 0; }

 private:
  std::vector<Status> m_left;
  std::vector<Status> m_right;
  std::vector<int> m_leftToRight;
  std::vector<int> m_rightToLeft;
  int m_insertions = 0;
  int m_deletions = 0;
};

}  // namespace ks
