#include "core/runs/fallback_note.h"

#include "core/repair/build_cause.h"

namespace ks::runs {
namespace {

std::string note(const std::string& name, const std::string& cause) {
  std::string s = "this number is the PyTorch fallback's: extension '" + name + "' did not build";
  if (cause.empty()) return s;
  const auto c = repair::causeFromName(cause);
  return s + " (" + cause + (c ? std::string(": ") + repair::causeDescription(*c) : "") + ")";
}

}  // namespace

std::string fallbackNote(const protocol::BuildReport& build) {
  const protocol::ExtensionBuild* failed = protocol::failedCandidateBuild(build);
  return failed ? note(failed->name, failed->cause) : "";
}

std::string fallbackNote(const nlohmann::ordered_json& endEvent) {
  if (endEvent.value("event", "") != "result" || !endEvent.contains("result")) return "";
  const auto& result = endEvent["result"];
  if (!result.contains("build") || !result["build"].contains("extensions")) return "";
  for (const auto& x : result["build"]["extensions"])
    if (!x.value("ok", true) && x.value("program", "") != "reference")
      return note(x.value("name", ""), x.value("cause", ""));
  return "";
}

bool fellBack(const protocol::BuildReport& build) { return protocol::failedCandidateBuild(build) != nullptr; }

}  // namespace ks::runs
