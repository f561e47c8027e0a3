// core/json: the type and range rules, the collecting ObjectReader (file readers) and the throwing Fields
// (protocol decoders); every message names the key, what was expected and what was found.
#include "core/json/json_fields.h"

#include <gtest/gtest.h>

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ks::json {
namespace {

using Strings = std::vector<std::string>;

// The message of the DecodeError that `f` throws, or "" when it throws none.
template <typename F>
std::string decodeError(F&& f) {
  try {
    f();
  } catch (const DecodeError& e) {
    return e.message;
  }
  return "";
}

// ---- describe, parseLine, number --------------------------------------------------------------------------

TEST(JsonDescribe, NamesTypeAndValue) {
  EXPECT_EQ(describe(Json("7")), "string \"7\"");
  EXPECT_EQ(describe(Json(3)), "integer 3");
  EXPECT_EQ(describe(Json(-3)), "integer -3");
  EXPECT_EQ(describe(Json(1.5)), "number 1.5");
  EXPECT_EQ(describe(Json(true)), "boolean true");
  EXPECT_EQ(describe(Json(nullptr)), "null");
  EXPECT_EQ(describe(Json::object()), "object");
  EXPECT_EQ(describe(Json::array()), "array");
  EXPECT_EQ(describe(Json("say \"hi\"")), "string \"say \\\"hi\\\"\"");
}

TEST(JsonDescribe, CutsLongStringsOnACharacterBoundary) {
  EXPECT_EQ(describe(Json(std::string(40, 'a'))), "string \"" + std::string(40, 'a') + "\"");
  EXPECT_EQ(describe(Json(std::string(41, 'a'))), "string \"" + std::string(37, 'a') + "...\"");
  // 36 ASCII bytes then a 2-byte character that would straddle the cut at 37: the whole character goes.
  const std::string s = std::string(36, 'a') + "\xC3\xA9" + std::string(10, 'b');
  EXPECT_EQ(describe(Json(s)), "string \"" + std::string(36, 'a') + "...\"");
}

TEST(JsonParseLine, ReportsColumnAndTruncation) {
  std::string error;
  EXPECT_EQ(parseLine(R"({"a": 1})", false, error), Json({{"a", 1}}));
  EXPECT_EQ(error, "");
  EXPECT_FALSE(parseLine(R"({"a": )", false, error));
  EXPECT_EQ(error.rfind("not valid JSON: column ", 0), 0u) << error;
  EXPECT_EQ(error.find("truncated"), std::string::npos) << error;
  EXPECT_FALSE(parseLine(R"({"a": )", true, error));
  EXPECT_NE(error.find("(the last line has no line break: the file may be truncated)"), std::string::npos)
      << error;
}

// nlohmann reports a number beyond double's range as out_of_range, not parse_error: still one bad line.
TEST(JsonParseLine, NumberOverflowIsABadLineNotAnException) {
  std::string error;
  std::optional<Json> j;
  EXPECT_NO_THROW(j = parseLine(R"({"score_default": 1e400})", false, error));
  EXPECT_FALSE(j);
  EXPECT_EQ(error, "not valid JSON: number overflow parsing '1e400'");
}

TEST(JsonParseLine, KeepsKeyOrder) {
  std::string error;
  const auto j = parseLine(R"({"z": 1, "a": 2, "m": 3})", false, error);
  ASSERT_TRUE(j);
  Strings keys;
  for (auto it = j->begin(); it != j->end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (Strings{"z", "a", "m"}));
}

TEST(JsonNumber, NonFiniteBecomesNull) {
  EXPECT_EQ(number(2.5), Json(2.5));
  EXPECT_TRUE(number(std::nan("")).is_null());
  EXPECT_TRUE(number(std::numeric_limits<double>::infinity()).is_null());
}

// ---- the shared rules
// ---------------------------------------------------------------------------------------

TEST(JsonRules, IntegersInRange) {
  EXPECT_EQ(asInteger(Json(5), 0, 10), 5);
  EXPECT_EQ(asInteger(Json(-5), -10, 10), -5);
  EXPECT_FALSE(asInteger(Json(-1), 0, 10));
  EXPECT_FALSE(asInteger(Json(11), 0, 10));
  EXPECT_FALSE(asInteger(Json(5.0), 0, 10));  // a float is not an integer, even a whole one
  EXPECT_FALSE(asInteger(Json("5"), 0, 10));
  EXPECT_FALSE(asInteger(Json(true), 0, 10));
  // Unsigned values above int64's range are rejected, not wrapped to negatives.
  EXPECT_FALSE(asInteger(Json(std::uint64_t{1} << 63), INT64_MIN, INT64_MAX));
  EXPECT_EQ(asInteger(Json(std::uint64_t{INT64_MAX}), 0, INT64_MAX), INT64_MAX);
  EXPECT_EQ(integerExpected(0), "an integer >= 0");
  EXPECT_EQ(integerExpected(-2), "an integer >= -2");
  EXPECT_EQ(integerExpected(INT_MIN), "an integer");
  EXPECT_EQ(integerExpected(INT64_MIN), "an integer");
}

TEST(JsonRules, FiniteAndPositiveNumbers) {
  EXPECT_EQ(asNumber(Json(2), false), 2.0);
  EXPECT_EQ(asNumber(Json(-2.5), false), -2.5);
  EXPECT_FALSE(asNumber(Json(-2.5), true));
  EXPECT_FALSE(asNumber(Json(0), true));
  EXPECT_FALSE(asNumber(Json("1"), false));
  EXPECT_FALSE(asNumber(Json(nullptr), false));
  EXPECT_FALSE(asNumber(Json(std::numeric_limits<double>::infinity()), false));
  EXPECT_FALSE(asNumber(Json(std::nan("")), false));
}

// ---- ObjectReader
// -------------------------------------------------------------------------------------------

TEST(JsonObjectReader, ReadsEveryType) {
  Json j = {{"s", "text"}, {"i", 7}, {"x", 1.5}, {"o", {{"k", 1}}}, {"a", {1, 2}}};
  ObjectReader r(j);
  EXPECT_EQ(r.string("s", Need::Required), "text");
  EXPECT_EQ(r.integer("i", Need::Required), 7);
  EXPECT_EQ(r.number("x", Need::Required, true), 1.5);
  EXPECT_EQ(r.number("i", Need::Required), 7.0);  // integers are numbers
  ASSERT_NE(r.object("o", Need::Required), nullptr);
  EXPECT_EQ(r.object("o", Need::Required)->at("k"), 1);
  ASSERT_NE(r.array("a", Need::Required), nullptr);
  EXPECT_EQ(r.array("a", Need::Required)->size(), 2u);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.problems().empty());
}

TEST(JsonObjectReader, StringsAreMovedOut) {
  Json j = {{"s", std::string(100, 'x')}};
  ObjectReader r(j);
  EXPECT_EQ(r.string("s", Need::Required), std::string(100, 'x'));
  EXPECT_TRUE(j["s"].get<std::string>().empty());
}

TEST(JsonObjectReader, MissingKeysNameTheKeyAndWhatWasExpected) {
  Json j = Json::object();
  ObjectReader r(j, "measurement 2: ");
  EXPECT_FALSE(r.string("code", Need::Required));
  EXPECT_FALSE(r.integer("task_id", Need::Required));
  EXPECT_FALSE(r.integer("step", Need::Required, INT_MIN));
  EXPECT_FALSE(r.number("speedup", Need::Required, true));
  EXPECT_EQ(r.object("reference", Need::Required), nullptr);
  EXPECT_EQ(r.array("parents", Need::Required), nullptr);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.problems(), (Strings{
                              "measurement 2: missing key \"code\" (expected a string)",
                              "measurement 2: missing key \"task_id\" (expected an integer >= 0)",
                              "measurement 2: missing key \"step\" (expected an integer)",
                              "measurement 2: missing key \"speedup\" (expected a number > 0)",
                              "measurement 2: missing key \"reference\" (expected an object)",
                              "measurement 2: missing key \"parents\" (expected an array)",
                          }));
}

TEST(JsonObjectReader, OptionalKeysMayBeAbsentOrNull) {
  Json j = {{"n", nullptr}};
  ObjectReader r(j);
  EXPECT_FALSE(r.string("absent", Need::Optional));
  EXPECT_FALSE(r.string("n", Need::Optional));
  EXPECT_FALSE(r.integer("n", Need::Optional));
  EXPECT_FALSE(r.number("n", Need::Optional));
  EXPECT_EQ(r.object("n", Need::Optional), nullptr);
  EXPECT_EQ(r.array("n", Need::Optional), nullptr);
  EXPECT_TRUE(r.ok());
}

TEST(JsonObjectReader, RequiredNullIsMistyped) {
  Json j = {{"code", nullptr}};
  ObjectReader r(j);
  EXPECT_FALSE(r.string("code", Need::Required));
  EXPECT_EQ(r.problems(), (Strings{"expected key \"code\" to be a string, got null"}));
}

TEST(JsonObjectReader, WrongTypesSayWhatWasFound) {
  Json j = {{"code", 5},        {"task_id", "7"},        {"level", 1.0}, {"speedup", "fast"},
            {"reference", "x"}, {"parents", {{"a", 1}}}, {"flag", true}};
  ObjectReader r(j, "reference: ");
  EXPECT_FALSE(r.string("code", Need::Required));
  EXPECT_FALSE(r.integer("task_id", Need::Optional));
  EXPECT_FALSE(r.integer("level", Need::Required));
  EXPECT_FALSE(r.number("speedup", Need::Optional, true));
  EXPECT_EQ(r.object("reference", Need::Required), nullptr);
  EXPECT_EQ(r.array("parents", Need::Optional), nullptr);
  EXPECT_FALSE(r.string("flag", Need::Optional));
  EXPECT_EQ(r.problems(), (Strings{
                              "reference: expected key \"code\" to be a string, got integer 5",
                              "reference: expected key \"task_id\" to be an integer >= 0, got string \"7\"",
                              "reference: expected key \"level\" to be an integer >= 0, got number 1.0",
                              "reference: expected key \"speedup\" to be a number > 0, got string \"fast\"",
                              "reference: expected key \"reference\" to be an object, got string \"x\"",
                              "reference: expected key \"parents\" to be an array, got object",
                              "reference: expected key \"flag\" to be a string, got boolean true",
                          }));
}

TEST(JsonObjectReader, Ranges) {
  Json j = {{"neg", -1}, {"big", 3000000000LL}, {"zero", 0}, {"minus", -2.5}, {"version", 0}};
  ObjectReader r(j);
  EXPECT_FALSE(r.integer("neg", Need::Required));
  EXPECT_EQ(r.integer("neg", Need::Required, INT_MIN), -1);
  EXPECT_FALSE(r.integer("big", Need::Required, INT_MIN));  // beyond int
  EXPECT_FALSE(r.number("zero", Need::Required, true));
  EXPECT_EQ(r.number("minus", Need::Required), -2.5);
  EXPECT_FALSE(r.integer("version", Need::Required, 1));
  EXPECT_EQ(r.problems(), (Strings{
                              "expected key \"neg\" to be an integer >= 0, got integer -1",
                              "expected key \"big\" to be an integer, got integer 3000000000",
                              "expected key \"zero\" to be a number > 0, got integer 0",
                              "expected key \"version\" to be an integer >= 1, got integer 0",
                          }));
}

// ---- Fields
// -------------------------------------------------------------------------------------------------

TEST(JsonFields, ReadsEveryType) {
  const Json j = {{"s", "x"},
                  {"i", 3},
                  {"big", 5000000000LL},
                  {"x", 0.5},
                  {"b", false},
                  {"ss", {"a", "b"}},
                  {"is", {1, -2}},
                  {"o", {{"k", "v"}}},
                  {"os", {{{"k", 1}}, {{"k", 2}}}},
                  {"n", nullptr}};
  const Fields f(j, "");
  EXPECT_EQ(f.str("s"), "x");
  EXPECT_EQ(f.optStr("s"), "x");
  EXPECT_EQ(f.optStr("n"), std::nullopt);
  EXPECT_EQ(f.strOr("absent", "fb"), "fb");
  EXPECT_EQ(f.integer("i", 0), 3);
  EXPECT_EQ(f.optInteger("absent", 0), std::nullopt);
  EXPECT_EQ(f.int64("big", 0), 5000000000LL);
  EXPECT_EQ(f.number("x"), 0.5);
  EXPECT_EQ(f.number("i"), 3.0);
  EXPECT_TRUE(std::isnan(f.number("n")));         // null: a measurement that could not be taken
  EXPECT_TRUE(std::isnan(f.numberOr("n", 1.0)));  // present as null: NaN, not the fallback
  EXPECT_EQ(f.numberOr("absent", 1.0), 1.0);
  EXPECT_EQ(f.optNumber("n"), std::nullopt);
  EXPECT_FALSE(f.boolean("b"));
  EXPECT_EQ(f.booleanOr("absent", true), true);
  EXPECT_EQ(f.optBoolean("absent"), std::nullopt);
  EXPECT_EQ(f.strings("ss"), (Strings{"a", "b"}));
  EXPECT_TRUE(f.strings("absent").empty());
  EXPECT_EQ(f.int64s("is"), (std::vector<std::int64_t>{1, -2}));
  EXPECT_EQ(f.object("o").str("k"), "v");
  const std::vector<Fields> os = f.objects("os");
  ASSERT_EQ(os.size(), 2u);
  EXPECT_EQ(os[1].integer("k", 0), 2);
  EXPECT_EQ(os[1].pathOf("k"), "os[1].k");
  EXPECT_EQ(f.raw("o").size(), 1u);
  EXPECT_TRUE(f.has("s"));
  EXPECT_FALSE(f.has("n"));
  EXPECT_FALSE(f.has("absent"));
}

TEST(JsonFields, ErrorsNameThePathExpectedAndFound) {
  const Json j = {{"options", {{"seeds", "5"}, {"trials", 0}, {"big", 3000000000LL}, {"seed", -1}}},
                  {"id", 3},
                  {"ok", "yes"},
                  {"ss", {"a", 2}},
                  {"is", {1, 2.5}},
                  {"os", {1}},
                  {"x", "fast"}};
  const Fields f(j, "");
  const Fields o = f.object("options");
  EXPECT_EQ(decodeError([&] { o.integer("seeds", 1); }),
            "options.seeds: expected an integer >= 1, got string \"5\"");
  EXPECT_EQ(decodeError([&] { o.optInteger("trials", 1); }),
            "options.trials: expected an integer >= 1, got integer 0");
  EXPECT_EQ(decodeError([&] { o.integer("big", 1); }),
            "options.big: expected an integer >= 1, got integer 3000000000");
  EXPECT_EQ(decodeError([&] { o.int64("seed", 0); }),
            "options.seed: expected an integer >= 0, got integer -1");
  EXPECT_EQ(decodeError([&] { f.str("id"); }), "id: expected a string, got integer 3");
  EXPECT_EQ(decodeError([&] { f.str("absent"); }), "absent: expected a string, got nothing");
  EXPECT_EQ(decodeError([&] { f.boolean("ok"); }), "ok: expected true or false, got string \"yes\"");
  EXPECT_EQ(decodeError([&] { f.number("x"); }), "x: expected a number, got string \"fast\"");
  EXPECT_EQ(decodeError([&] { f.number("absent"); }), "absent: expected a number, got nothing");
  EXPECT_EQ(decodeError([&] { f.strings("ss"); }), "ss[1]: expected a string, got integer 2");
  EXPECT_EQ(decodeError([&] { f.strings("id"); }), "id: expected an array of strings, got integer 3");
  EXPECT_EQ(decodeError([&] { f.int64s("is"); }), "is[1]: expected an integer, got number 2.5");
  EXPECT_EQ(decodeError([&] { f.objects("os"); }), "os[0]: expected an object, got integer 1");
  EXPECT_EQ(decodeError([&] { f.object("id"); }), "id: expected an object, got integer 3");
  EXPECT_EQ(decodeError([&] { f.object("absent"); }), "absent: expected an object, got nothing");
  EXPECT_EQ(decodeError([&] { f.raw("absent"); }), "absent: expected a value, got nothing");
}

TEST(JsonFields, NotAnObject) {
  EXPECT_EQ(decodeError([] { Fields(Json::array({1, 2}), ""); }), "message: expected an object, got array");
  EXPECT_EQ(decodeError([] { Fields(Json(5), "result"); }), "result: expected an object, got integer 5");
}

TEST(JsonFields, RejectUnknownNamesTheKey) {
  const Json j = {{"options", {{"seeds", 1}, {"trails", 3}}}};
  const Fields o = Fields(j, "").object("options");
  EXPECT_EQ(decodeError([&] { o.rejectUnknown({"seeds", "trials"}); }), "options.trails: unknown key");
  EXPECT_EQ(decodeError([&] { o.rejectUnknown({"seeds", "trails"}); }), "");
}

}  // namespace
}  // namespace ks::json
