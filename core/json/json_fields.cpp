#include "core/json/json_fields.h"

#include "core/json/nesting.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <utility>

namespace ks::json {
namespace {

constexpr std::size_t kMaxQuoted = 40;
constexpr std::size_t kMaxParseMessage = 200;

std::string quoted(std::string_view key) { return "\"" + std::string(key) + "\""; }

// The first `n` bytes of `s`, moved back so a UTF-8 sequence is not cut in two.
std::string utf8Prefix(const std::string& s, std::size_t n) {
  while (n > 0 && n < s.size() && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return s.substr(0, n);
}

}  // namespace

std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::string: {
      std::string s = value.get<std::string>();
      if (s.size() > kMaxQuoted) s = utf8Prefix(s, kMaxQuoted - 3) + "...";
      return "string " + Json(s).dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
      return "integer " + value.dump();
    case Json::value_t::number_float:
      return "number " + value.dump();
    case Json::value_t::boolean:
      return "boolean " + value.dump();
    case Json::value_t::null:
      return "null";
    case Json::value_t::object:
      return "object";
    case Json::value_t::array:
      return "array";
    default:
      return "a binary value";
  }
}

std::optional<Json> parseLine(std::string_view text, bool lastWithoutNewline, std::string& error) {
  if (std::string deep = nestingError(text); !deep.empty()) {
    error = "JSON " + deep + ": not read";
    return std::nullopt;
  }
  try {
    return Json::parse(text.data(), text.data() + text.size());
  } catch (const Json::exception& e) {
    // Syntax errors (parse_error) and numbers beyond double's range (out_of_range 406, "1e400"):
    // "[json.exception.parse_error.101] parse error at line 1, column 7: syntax error ..." -> "column 7: ..."
    // "[json.exception.out_of_range.406] number overflow parsing '1e400'" -> "number overflow parsing ..."
    std::string detail = e.what();
    if (auto at = detail.find("column "); at != std::string::npos)
      detail.erase(0, at);
    else if (auto end = detail.find("] "); detail.starts_with("[json.exception.") && end != std::string::npos)
      detail.erase(0, end + 2);
    if (detail.size() > kMaxParseMessage) detail = detail.substr(0, kMaxParseMessage) + "...";
    error = "not valid JSON: " + detail;
    if (lastWithoutNewline) error += " (the last line has no line break: the file may be truncated)";
    return std::nullopt;
  }
}

Json number(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

Json numbers(const std::vector<double>& values) {
  Json out = Json::array();
  for (double v : values) out.push_back(number(v));
  return out;
}

std::optional<std::int64_t> asInteger(const Json& value, std::int64_t min, std::int64_t max) {
  if (value.is_number_unsigned()) {
    // Non-negative integers parse as unsigned: compare before reading them as signed.
    const auto v = value.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
    const auto s = static_cast<std::int64_t>(v);
    if (s < min || s > max) return std::nullopt;
    return s;
  }
  if (value.is_number_integer()) {
    const auto v = value.get<std::int64_t>();
    if (v < min || v > max) return std::nullopt;
    return v;
  }
  return std::nullopt;
}

std::optional<double> asNumber(const Json& value, bool positive) {
  if (!value.is_number()) return std::nullopt;
  const double v = value.get<double>();
  if (!std::isfinite(v) || (positive && !(v > 0))) return std::nullopt;
  return v;
}

std::string integerExpected(std::int64_t min) {
  return min <= INT_MIN ? "an integer" : "an integer >= " + std::to_string(min);
}

// ---- ObjectReader ---------------------------------------------------------------------------------------

ObjectReader::ObjectReader(Json& object, std::string context)
    : object_(object), context_(std::move(context)) {}

Json* ObjectReader::find(std::string_view key, Need need, const std::string& expected) {
  auto it = object_.find(key);
  if (it == object_.end() || (it->is_null() && need == Need::Optional)) {
    if (need == Need::Required)
      problems_.push_back(context_ + "missing key " + quoted(key) + " (expected " + expected + ")");
    return nullptr;
  }
  return &*it;
}

void ObjectReader::mistyped(std::string_view key, const std::string& expected, const Json& value) {
  problems_.push_back(context_ + "expected key " + quoted(key) + " to be " + expected + ", got " +
                      describe(value));
}

std::optional<std::string> ObjectReader::string(std::string_view key, Need need) {
  const std::string expected = "a string";
  Json* value = find(key, need, expected);
  if (!value) return std::nullopt;
  if (!value->is_string()) {
    mistyped(key, expected, *value);
    return std::nullopt;
  }
  return std::move(value->get_ref<std::string&>());
}

std::optional<int> ObjectReader::integer(std::string_view key, Need need, int min) {
  const std::string expected = integerExpected(min);
  Json* value = find(key, need, expected);
  if (!value) return std::nullopt;
  const std::optional<std::int64_t> v = asInteger(*value, min, INT_MAX);
  if (!v) {
    mistyped(key, expected, *value);
    return std::nullopt;
  }
  return static_cast<int>(*v);
}

std::optional<double> ObjectReader::number(std::string_view key, Need need, bool positive) {
  const std::string expected = positive ? "a number > 0" : "a number";
  Json* value = find(key, need, expected);
  if (!value) return std::nullopt;
  const std::optional<double> v = asNumber(*value, positive);
  if (!v) mistyped(key, expected, *value);
  return v;
}

Json* ObjectReader::object(std::string_view key, Need need) {
  const std::string expected = "an object";
  Json* value = find(key, need, expected);
  if (value && !value->is_object()) {
    mistyped(key, expected, *value);
    return nullptr;
  }
  return value;
}

Json* ObjectReader::array(std::string_view key, Need need) {
  const std::string expected = "an array";
  Json* value = find(key, need, expected);
  if (value && !value->is_array()) {
    mistyped(key, expected, *value);
    return nullptr;
  }
  return value;
}

// ---- Fields ---------------------------------------------------------------------------------------------

Fields::Fields(const Json& value, std::string path) : object_(&value), path_(std::move(path)) {
  if (!value.is_object())
    throw DecodeError{(path_.empty() ? std::string("message") : path_) + ": expected an object, got " +
                      describe(value)};
}

std::string Fields::pathOf(std::string_view key) const {
  return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

const Json* Fields::find(std::string_view key) const {
  auto it = object_->find(key);
  if (it == object_->end() || it->is_null()) return nullptr;
  return &*it;
}

bool Fields::has(std::string_view key) const { return find(key) != nullptr; }

void Fields::fail(std::string_view key, const std::string& expected, const Json* got) const {
  throw DecodeError{pathOf(key) + ": expected " + expected + ", got " + (got ? describe(*got) : "nothing")};
}

void Fields::rejectUnknown(std::initializer_list<std::string_view> known) const {
  for (auto it = object_->begin(); it != object_->end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      throw DecodeError{pathOf(it.key()) + ": unknown key"};
}

std::string Fields::str(std::string_view key) const {
  const Json* v = find(key);
  if (!v || !v->is_string()) fail(key, "a string", v);
  return v->get<std::string>();
}

std::optional<std::string> Fields::optStr(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return str(key);
}

std::string Fields::strOr(std::string_view key, std::string fallback) const {
  return has(key) ? str(key) : std::move(fallback);
}

int Fields::integer(std::string_view key, int min) const {
  const Json* v = find(key);
  const std::optional<std::int64_t> value = v ? asInteger(*v, min, INT_MAX) : std::nullopt;
  if (!value) fail(key, integerExpected(min), v);
  return static_cast<int>(*value);
}

std::optional<int> Fields::optInteger(std::string_view key, int min) const {
  if (!has(key)) return std::nullopt;
  return integer(key, min);
}

std::int64_t Fields::int64(std::string_view key, std::int64_t min) const {
  const Json* v = find(key);
  const std::optional<std::int64_t> value =
      v ? asInteger(*v, min, std::numeric_limits<std::int64_t>::max()) : std::nullopt;
  if (!value) fail(key, integerExpected(min), v);
  return *value;
}

double Fields::number(std::string_view key) const {
  auto it = object_->find(key);
  if (it != object_->end() && it->is_null()) return std::numeric_limits<double>::quiet_NaN();
  const Json* v = find(key);
  const std::optional<double> value = v ? asNumber(*v, /*positive=*/false) : std::nullopt;
  if (!value) fail(key, "a number", v);
  return *value;
}

std::optional<double> Fields::optNumber(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return number(key);
}

double Fields::numberOr(std::string_view key, double fallback) const {
  return object_->contains(key) ? number(key) : fallback;
}

bool Fields::boolean(std::string_view key) const {
  const Json* v = find(key);
  if (!v || !v->is_boolean()) fail(key, "true or false", v);
  return v->get<bool>();
}

std::optional<bool> Fields::optBoolean(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return boolean(key);
}

bool Fields::booleanOr(std::string_view key, bool fallback) const {
  return has(key) ? boolean(key) : fallback;
}

std::vector<std::string> Fields::strings(std::string_view key) const {
  std::vector<std::string> out;
  const Json* v = find(key);
  if (!v) return out;
  if (!v->is_array()) fail(key, "an array of strings", v);
  for (std::size_t i = 0; i < v->size(); ++i) {
    if (!(*v)[i].is_string()) fail(std::string(key) + "[" + std::to_string(i) + "]", "a string", &(*v)[i]);
    out.push_back((*v)[i].get<std::string>());
  }
  return out;
}

std::vector<std::int64_t> Fields::int64s(std::string_view key) const {
  std::vector<std::int64_t> out;
  const Json* v = find(key);
  if (!v) return out;
  if (!v->is_array()) fail(key, "an array of integers", v);
  for (std::size_t i = 0; i < v->size(); ++i) {
    const std::optional<std::int64_t> e = asInteger((*v)[i], std::numeric_limits<std::int64_t>::min(),
                                                    std::numeric_limits<std::int64_t>::max());
    if (!e) fail(std::string(key) + "[" + std::to_string(i) + "]", "an integer", &(*v)[i]);
    out.push_back(*e);
  }
  return out;
}

std::vector<double> Fields::numbers(std::string_view key) const {
  std::vector<double> out;
  const Json* v = find(key);
  if (!v) return out;
  if (!v->is_array()) fail(key, "an array of numbers", v);
  for (std::size_t i = 0; i < v->size(); ++i) {
    if ((*v)[i].is_null()) {
      out.push_back(std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    const std::optional<double> e = asNumber((*v)[i], /*positive=*/false);
    if (!e) fail(std::string(key) + "[" + std::to_string(i) + "]", "a number", &(*v)[i]);
    out.push_back(*e);
  }
  return out;
}

Fields Fields::object(std::string_view key) const {
  const Json* v = find(key);
  if (!v) fail(key, "an object", v);
  return Fields(*v, pathOf(key));
}

std::vector<Fields> Fields::objects(std::string_view key) const {
  std::vector<Fields> out;
  const Json* v = find(key);
  if (!v) return out;
  if (!v->is_array()) fail(key, "an array of objects", v);
  for (std::size_t i = 0; i < v->size(); ++i)
    out.emplace_back((*v)[i], pathOf(key) + "[" + std::to_string(i) + "]");
  return out;
}

const Json& Fields::raw(std::string_view key) const {
  const Json* v = find(key);
  if (!v) fail(key, "a value", v);
  return *v;
}

}  // namespace ks::json
