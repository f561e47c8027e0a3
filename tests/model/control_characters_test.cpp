// escapeControlCharacters (core/model/control_characters.h): what a terminal or text view would act on is
// written out; text, tabs, newlines, UTF-8 and backslashes stay as they are.
#include "core/model/control_characters.h"

#include <gtest/gtest.h>

namespace ks {
namespace {

TEST(ControlCharacters, PlainTextTabsNewlinesAndUtf8StayAsTheyAre) {
  for (const std::string text : {"", "a\tb\nc \\x1b", "Größe 3×4 µs — 日本語 🙂"})
    EXPECT_EQ(escapeControlCharacters(text), text);
}

TEST(ControlCharacters, C0ControlsAndDeleteBecomeHexEscapes) {
  EXPECT_EQ(escapeControlCharacters("\x1b]52;c;SGVsbG8=\x07"), "\\x1b]52;c;SGVsbG8=\\x07");
  EXPECT_EQ(escapeControlCharacters("done\rfake"), "done\\x0dfake");
  EXPECT_EQ(escapeControlCharacters(std::string("a\0b\x7f", 4)), "a\\x00b\\x7f");
  EXPECT_EQ(escapeControlCharacters("\x1b[2J\x1b[H"), "\\x1b[2J\\x1b[H");
}

TEST(ControlCharacters, C1ControlsAndBidiOverridesBecomeUnicodeEscapes) {
  EXPECT_EQ(escapeControlCharacters("\xc2\x9b" "31m"), "\\u009b31m");        // 8-bit CSI
  EXPECT_EQ(escapeControlCharacters("\xc2\x9d" "0;t\xc2\x9c"), "\\u009d0;t\\u009c");  // OSC ... ST
  EXPECT_EQ(escapeControlCharacters("a\xe2\x80\xae" "cba"), "a\\u202ecba");  // right-to-left override
  EXPECT_EQ(escapeControlCharacters("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u2066x\\u2069");  // isolates
  EXPECT_EQ(escapeControlCharacters("\xc2\xa0\xe2\x80\xa9"), "\xc2\xa0\xe2\x80\xa9");  // NBSP, U+2029 kept
}

TEST(ControlCharacters, BytesThatAreNotUtf8BecomeHexEscapes) {
  EXPECT_EQ(escapeControlCharacters("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(escapeControlCharacters("\xc0\x9b"), "\\xc0\\x9b");          // an overlong CSI
  EXPECT_EQ(escapeControlCharacters("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(escapeControlCharacters("x\xe2\x80"), "x\\xe2\\x80");         // cut off
}

TEST(ControlCharacters, AnIncompleteCharacterAtTheEndIsHeldBackByItsLength) {
  EXPECT_EQ(incompleteUtf8Tail(""), 0u);
  EXPECT_EQ(incompleteUtf8Tail("abc"), 0u);
  EXPECT_EQ(incompleteUtf8Tail("a\xc2"), 1u);
  EXPECT_EQ(incompleteUtf8Tail("a\xe2\x80"), 2u);
  EXPECT_EQ(incompleteUtf8Tail("a\xf0\x9f\x99"), 3u);
  EXPECT_EQ(incompleteUtf8Tail("a\xf0\x9f\x99\x82"), 0u);  // complete
  EXPECT_EQ(incompleteUtf8Tail("a\xe2\x80\xae"), 0u);
  EXPECT_EQ(incompleteUtf8Tail("a\x80"), 0u);  // a stray continuation byte: nothing to wait for
}

}  // namespace
}  // namespace ks
