#include "app/kscope-runner/executor_link.h"

#include <nlohmann/json.hpp>

namespace ks::runner {
namespace {

using Json = nlohmann::json;

// The string at `key` of a JSON object with exactly `keys` keys, else nullopt.
std::optional<std::string> stringOf(const std::string& line, const char* key, std::size_t keys) {
  if (line.size() > 4096) return std::nullopt;
  const Json j = Json::parse(line, nullptr, false);
  if (!j.is_object() || j.size() != keys || !j.contains(key) || !j[key].is_string()) return std::nullopt;
  return j[key].get<std::string>();
}

}  // namespace

std::string syncRequestLine(const std::string& token) { return Json{{"sync", token}}.dump(); }

std::optional<std::string> syncRequestToken(const std::string& line) { return stringOf(line, "sync", 1); }

std::string syncReplyLine(const std::string& token) { return Json{{"event", "sync"}, {"token", token}}.dump(); }

std::optional<std::string> syncReplyToken(const std::string& line) {
  const Json j = Json::parse(line.size() > 4096 ? std::string() : line, nullptr, false);
  if (!j.is_object() || j.size() != 2 || j.value("event", "") != "sync") return std::nullopt;
  return stringOf(line, "token", 2);
}

}  // namespace ks::runner
