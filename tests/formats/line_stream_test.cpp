#include "core/formats/line_stream.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/formats/temp_dir.h"

namespace ks {
namespace {

struct Streamed {
  std::vector<std::string> texts;
  std::vector<int> numbers;
  std::vector<bool> cut;
  std::vector<LoadIssue> issues;
  std::size_t blocks = 0;
};

Streamed stream(const std::filesystem::path& path, const LoadOptions& options = {}) {
  Streamed s;
  IssueList issues(path.string(), s.issues);
  streamLines(path, options, issues, [&](std::span<const TextLine> lines) {
    ++s.blocks;
    for (const TextLine& l : lines) {
      s.texts.emplace_back(l.text);
      s.numbers.push_back(l.number);
      s.cut.push_back(l.lastWithoutNewline);
    }
    return true;
  });
  issues.finish();
  return s;
}

TEST(LineStream, SplitsLinesAndSkipsBlankOnes) {
  test::TempDir dir;
  const Streamed s = stream(dir.write("a.txt",
                                      "\xEF\xBB\xBF"
                                      "one\r\n\n  \ntwo\nthree"));
  EXPECT_TRUE(s.issues.empty());
  EXPECT_EQ(s.texts, (std::vector<std::string>{"one", "two", "three"}));
  EXPECT_EQ(s.numbers, (std::vector<int>{1, 4, 5}));
  EXPECT_EQ(s.cut, (std::vector<bool>{false, false, true}));
}

// Lines longer than a 16 MiB block, across many blocks: every byte arrives once, numbered right.
TEST(LineStream, LinesSpanningBlocksArriveWhole) {
  test::TempDir dir;
  std::string text;
  std::vector<std::string> expected;
  for (int i = 0; i < 12; ++i) {
    expected.push_back(std::string(static_cast<std::size_t>(i) * 3'000'001 + 1, static_cast<char>('a' + i)));
    text += expected.back() + "\n";
  }
  const Streamed s = stream(dir.write("big.txt", text));
  EXPECT_TRUE(s.issues.empty());
  EXPECT_EQ(s.texts, expected);
  EXPECT_EQ(s.numbers.back(), 12);
  EXPECT_GT(s.blocks, 1u);
}

TEST(LineStream, OverlongLineIsSkippedWithAnIssue) {
  test::TempDir dir;
  LoadOptions options;
  options.maxLineBytes = 1000;
  const std::string text = "short\n" + std::string(5000, 'x') + "\nafter\n" + std::string(1000, 'y') + "\n" +
                           std::string(1001, 'z');
  const Streamed s = stream(dir.write("long.txt", text), options);
  EXPECT_EQ(s.texts, (std::vector<std::string>{"short", "after", std::string(1000, 'y')}));
  EXPECT_EQ(s.numbers, (std::vector<int>{1, 3, 4}));
  ASSERT_EQ(s.issues.size(), 2u);
  EXPECT_EQ(s.issues[0].line, 2);
  EXPECT_EQ(s.issues[0].message, "line is longer than 1000 bytes; skipped");
  EXPECT_EQ(s.issues[1].line, 5);
}

// A few invalid bytes are text wherever they are (the JSON reader skips their lines): a stray byte on line
// 2 must not reject the whole file as binary when the same byte on line 200 skips one line.
TEST(LineStream, AFewInvalidUtf8BytesAreTextWhereverTheyAre) {
  test::TempDir dir;
  const Streamed s = stream(dir.write("latin1.txt", "caf\xe9\nok\n"));
  EXPECT_TRUE(s.issues.empty());
  EXPECT_EQ(s.texts, (std::vector<std::string>{"caf\xe9", "ok"}));
}

TEST(LineStream, MostlyInvalidUtf8IsBinary) {
  test::TempDir dir;
  std::string latin1;
  for (int i = 0; i < 200; ++i) latin1 += "\xe9t\xe9 ";
  const Streamed s = stream(dir.write("latin1.txt", latin1 + "\n"));
  ASSERT_EQ(s.issues.size(), 1u);
  EXPECT_EQ(s.issues[0].message,
            "binary file: an invalid UTF-8 byte 0xe9 at byte 0; expected UTF-8 text, one JSON object a line");
  EXPECT_TRUE(s.texts.empty());
}

}  // namespace
}  // namespace ks
