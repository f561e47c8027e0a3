// core/json/nesting: the depth bound every parser of foreign JSON checks first (without it, an array nested
// 100,000 deep in a CUDA-L1 line overflows the stack of `kscope summary` and `check`).
#include "core/json/nesting.h"

#include <gtest/gtest.h>

#include <string>

#include "core/json/json_fields.h"

namespace ks::json {
namespace {

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(JsonNesting, CountsArraysAndObjectsOutsideStrings) {
  EXPECT_EQ(tooDeepAt(R"({"a": [1, {"b": []}]})", 4), std::nullopt);
  EXPECT_EQ(tooDeepAt(R"({"a": [1, {"b": []}]})", 2), 11u);  // the `{` before "b", column 11
  // Brackets inside strings, escaped quotes included, are text, not nesting.
  EXPECT_EQ(tooDeepAt(R"({"code": "[[[[{{{{ \" [[[[ "})", 1), std::nullopt);
  EXPECT_EQ(tooDeepAt(R"(["\\", [[]]])", 2), 9u);  // an escaped backslash ends before the quote
}

TEST(JsonNesting, TheBoundIsInclusive) {
  EXPECT_EQ(tooDeepAt(nested(kMaxNesting)), std::nullopt);
  EXPECT_EQ(tooDeepAt(nested(kMaxNesting + 1)), kMaxNesting + 1);
  EXPECT_EQ(nestingError(nested(kMaxNesting + 1)), "nested deeper than 512 levels (column 513)");
  EXPECT_EQ(nestingError(nested(3)), "");
}

TEST(JsonNesting, ParseLineRejectsTheHundredThousandDeepValueWithoutParsingIt) {
  const std::string line = R"({"level_id": 1, "task_id": 1, "ref_code": )" + nested(100000) + "}";
  std::string error;
  EXPECT_FALSE(parseLine(line, false, error).has_value());
  EXPECT_EQ(error, "JSON nested deeper than 512 levels (column 554): not read");
  // Within the bound, the same shape parses.
  const std::string shallow = R"({"level_id": 1, "task_id": 1, "ref_code": )" + nested(100) + "}";
  EXPECT_TRUE(parseLine(shallow, false, error).has_value()) << error;
}

}  // namespace
}  // namespace ks::json
