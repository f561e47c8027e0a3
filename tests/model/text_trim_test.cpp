// The shared trim rule (core/model/text_trim.h).
#include "core/model/text_trim.h"

#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace ks {
namespace {

TEST(Trimmed, DropsBlanksAtBothEndsOnly) {
  EXPECT_EQ(trimmed(" \t a b\t c \r\n"), "a b\t c");
  EXPECT_EQ(trimmed("abc"), "abc");
  EXPECT_EQ(trimmed("x"), "x");
}

TEST(Trimmed, ATextOfBlanksAloneIsEmpty) {
  EXPECT_EQ(trimmed(""), "");
  EXPECT_EQ(trimmed(" \t\r\n "), "");
}

TEST(Trimmed, KeepsWhatIsNotInTheGivenBlanks) {
  // CSV cells trim spaces and tabs only: a '\r' inside a line is the cell's.
  EXPECT_EQ(trimmed(" a\r ", " \t"), "a\r");
  EXPECT_EQ(trimmed("\n\n", " \t"), "\n\n");
}

TEST(Trimmed, CSpacesAreWhatIsspaceCounts) {
  for (int c = 0; c < 256; ++c)
    EXPECT_EQ(kCSpaces.find(static_cast<char>(c)) != std::string_view::npos, std::isspace(c) != 0) << c;
  EXPECT_EQ(trimmed("\v\f id \f\v", kCSpaces), "id");
  EXPECT_EQ(trimmed("\v id \f"), "\v id \f");  // the default blanks keep them
}

TEST(Trimmed, IsAViewIntoTheText) {
  const std::string text = "  model name  ";
  const std::string_view view = trimmed(text);
  EXPECT_EQ(view.data(), text.data() + 2);
  EXPECT_EQ(view.size(), 10u);
}

static_assert(trimmed("  ok ") == "ok");

}  // namespace
}  // namespace ks
