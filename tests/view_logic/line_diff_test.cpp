// LineDiff: statuses per side, pairing of removed+added runs as changed, alignment, counts.
#include "views/logic/line_diff.h"

#include <gtest/gtest.h>

namespace ks {
namespace {

using S = LineDiff::Status;

TEST(LineDiff, IdenticalTextsHaveNoChanges) {
  const LineDiff d = LineDiff::compute("a\nb\n", "a\nb\n");
  EXPECT_TRUE(d.identical());
  EXPECT_EQ(d.left(), (std::vector<S>{S::Same, S::Same, S::Same}));
  EXPECT_EQ(d.leftToRight(1), 1);
}

TEST(LineDiff, PairsAReplacedLineAsChangedAndCountsLikeGit) {
  const LineDiff d = LineDiff::compute("a\nb\nc", "a\nx\nc\nd");
  EXPECT_EQ(d.left(), (std::vector<S>{S::Same, S::Changed, S::Same}));
  EXPECT_EQ(d.right(), (std::vector<S>{S::Same, S::Changed, S::Same, S::Added}));
  EXPECT_EQ(d.insertions(), 2);
  EXPECT_EQ(d.deletions(), 1);
  EXPECT_EQ(d.leftToRight(1), 1);
  EXPECT_EQ(d.rightToLeft(3), 2);
}

TEST(LineDiff, RemovedLinesAlignWithTheNextCommonLine) {
  const LineDiff d = LineDiff::compute("a\nb\nc\nd", "a\nd");  // the left side is the longer one
  EXPECT_EQ(d.left(), (std::vector<S>{S::Same, S::Removed, S::Removed, S::Same}));
  EXPECT_EQ(d.right(), (std::vector<S>{S::Same, S::Same}));
  EXPECT_EQ(d.leftToRight(1), 1);
  EXPECT_EQ(d.leftToRight(2), 1);
  EXPECT_EQ(d.rightToLeft(1), 3);
  EXPECT_EQ(d.deletions(), 2);
  EXPECT_EQ(d.insertions(), 0);
}

TEST(LineDiff, IgnoresCarriageReturnsAndClampsAlignmentLookups) {
  const LineDiff d = LineDiff::compute("a\r\nb\r\n", "a\nb\n");
  EXPECT_TRUE(d.identical());
  EXPECT_EQ(d.leftToRight(-5), 0);
  EXPECT_EQ(d.leftToRight(99), 2);
  EXPECT_EQ(LineDiff().leftToRight(3), 0);
}

}  // namespace
}  // namespace ks
