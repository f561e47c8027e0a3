// The words for the sets statistics are over, shared by kscope summary, the Charts tab and the report.
#include "core/stats/speedup_sets.h"

#include <gtest/gtest.h>

using namespace ks;

TEST(SpeedupSets, NamesAndNotWins) {
  EXPECT_STREQ(kAllRecordedSet, "all recorded");
  EXPECT_STREQ(kShownAsWinsSet, "shown as wins");
  EXPECT_EQ(ofTheWins(196), "of the 196 shown as wins");
  EXPECT_EQ(notWinsText(4, 31), "4 fallback-timed, 31 caught hacks not shown as wins");
  EXPECT_EQ(notWinsText(0, 1), "1 caught hack not shown as wins");
  EXPECT_EQ(notWinsText(2, 0), "2 fallback-timed not shown as wins");
  EXPECT_EQ(notWinsText(0, 0), "");
}
