#include "core/repair/unified_diff.h"

#include <gtest/gtest.h>

namespace ks::repair {
namespace {

TEST(UnifiedDiff, EqualTextsHaveNoDiff) { EXPECT_EQ(unifiedDiff("a\nb\n", "a\nb\n", "x.py"), ""); }

TEST(UnifiedDiff, OneChangedLineWithContext) {
  const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  const std::string after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(unifiedDiff(before, after, "p.py", 2),
            "--- a/p.py\n+++ b/p.py\n@@ -3,5 +3,5 @@\n 3\n 4\n-5\n+five\n 6\n 7\n");
}

TEST(UnifiedDiff, InsertionsAndSeparateHunks) {
  const std::string before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n";
  const std::string after = "a\nnew\nb\nc\nd\ne\nf\ng\nh\ni\nJ\n";
  EXPECT_EQ(unifiedDiff(before, after, "p.py", 1),
            "--- a/p.py\n+++ b/p.py\n@@ -1,2 +1,3 @@\n a\n+new\n b\n@@ -9,2 +10,2 @@\n i\n-j\n+J\n");
}

}  // namespace
}  // namespace ks::repair
