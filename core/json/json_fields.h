#pragma once
// Typed access to the keys of one JSON object, with a message that names the key, says what was expected
// and what was found ('expected key "task_id" to be an integer >= 0, got string "7"'). One set of type and
// range rules, two ways of reporting a bad key:
//   ObjectReader  collects every problem and carries on (file readers: one bad key skips one line, and the
//                 line's message lists all of them);
//   Fields        throws DecodeError at the first one, with the key's path ("options.seeds"), for decoders
//                 that reject a whole message (core/protocol).
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

// Keeps the key order of the input, so objects (e.g. run-format baselines) read back in the order written.
using Json = nlohmann::ordered_json;

namespace json {

// "string \"7\"", "integer 3", "number 1.5", "boolean true", "null", "object", "array". Strings longer than
// 40 bytes are cut to their first 37 (on a UTF-8 boundary) and "...".
std::string describe(const Json& value);

// Parses one line of a JSONL file; on failure returns nullopt and sets `error` to e.g.
// "not valid JSON: column 12: ..." (with a note on truncation when the line is the last, unterminated one).
std::optional<Json> parseLine(std::string_view text, bool lastWithoutNewline, std::string& error);

// A JSON number, or null when `value` is not finite (JSON has no NaN or infinity).
Json number(double value);
Json numbers(const std::vector<double>& values);  // each as number() writes it

// ---- The rules, shared by both readers ------------------------------------------------------------------
// Each returns the value when `value` has the type (and lies in the range), else nullopt.
std::optional<std::int64_t> asInteger(const Json& value, std::int64_t min, std::int64_t max);
// A finite number (integers included); > 0 when `positive`.
std::optional<double> asNumber(const Json& value, bool positive);
// What asInteger expects, for messages: "an integer >= 0", or "an integer" when min is INT_MIN or lower.
std::string integerExpected(std::int64_t min);

// ---- Collecting reader ----------------------------------------------------------------------------------
enum class Need { Required, Optional };

class ObjectReader {
 public:
  // `object` must be a JSON object; `context` prefixes every message (e.g. "measurement 2: ").
  explicit ObjectReader(Json& object, std::string context = {});

  // Optional keys treat null like an absent key. Strings are moved out of the object.
  std::optional<std::string> string(std::string_view key, Need need);
  std::optional<int> integer(std::string_view key, Need need, int min = 0);
  // A finite number; > 0 when `positive`.
  std::optional<double> number(std::string_view key, Need need, bool positive = false);
  Json* object(std::string_view key, Need need);
  Json* array(std::string_view key, Need need);

  // "missing key \"k\" (expected a string)", "expected key \"k\" to be a string, got integer 5", each with
  // the context in front.
  const std::vector<std::string>& problems() const { return problems_; }
  bool ok() const { return problems_.empty(); }

 private:
  Json* find(std::string_view key, Need need, const std::string& expected);
  void mistyped(std::string_view key, const std::string& expected, const Json& value);

  Json& object_;
  std::string context_;
  std::vector<std::string> problems_;
};

// ---- Throwing, path-aware reader ------------------------------------------------------------------------
// "options.seeds: expected an integer >= 1, got string \"5\"", "id: expected a string, got nothing".
struct DecodeError {
  std::string message;
};

class Fields {
 public:
  // Throws DecodeError when `value` is not an object ("<path or 'message'>: expected an object, got array").
  Fields(const Json& value, std::string path);

  bool has(std::string_view key) const;                                     // present and not null
  void rejectUnknown(std::initializer_list<std::string_view> known) const;  // "path.key: unknown key"

  // Required reads throw when the key is absent or null; opt* return nullopt then; *Or return the fallback.
  std::string str(std::string_view key) const;
  std::optional<std::string> optStr(std::string_view key) const;
  std::string strOr(std::string_view key, std::string fallback) const;
  int integer(std::string_view key, int min) const;
  std::optional<int> optInteger(std::string_view key, int min) const;
  std::int64_t int64(std::string_view key, std::int64_t min) const;
  double number(std::string_view key) const;  // null reads as NaN (a measurement that could not be taken)
  std::optional<double> optNumber(std::string_view key) const;
  double numberOr(std::string_view key, double fallback) const;  // absent: fallback; null: NaN
  bool boolean(std::string_view key) const;
  std::optional<bool> optBoolean(std::string_view key) const;
  bool booleanOr(std::string_view key, bool fallback) const;
  std::vector<std::string> strings(std::string_view key) const;  // absent: empty
  std::vector<std::int64_t> int64s(std::string_view key) const;  // absent: empty
  std::vector<double> numbers(std::string_view key) const;       // absent: empty; null elements NaN
  Fields object(std::string_view key) const;
  std::vector<Fields> objects(std::string_view key) const;  // array of objects; absent: empty
  const Json& raw(std::string_view key) const;              // required, any type

  std::string pathOf(std::string_view key) const;  // "options.seeds"

 private:
  const Json* find(std::string_view key) const;
  [[noreturn]] void fail(std::string_view key, const std::string& expected, const Json* got) const;

  const Json* object_;
  std::string path_;
};

}  // namespace json
}  // namespace ks
