#include "core/runs/fallback_note.h"

#include <cstdio>

#include "core/repair/build_cause.h"

namespace ks::runs {
namespace {

std::string because(const std::string& cause) {
  if (cause.empty()) return "";
  const auto c = repair::causeFromName(cause);
  return " (" + cause + (c ? std::string(": ") + repair::causeDescription(*c) : "") + ")";
}

std::string note(const std::string& name, const std::string& cause) {
  return "this number is the PyTorch fallback's: extension '" + name + "' did not build" + because(cause);
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", s);
  return text;
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

std::string buildEventNote(const protocol::BuildEvent& e) {
  const std::string who = (e.program.empty() ? "candidate" : e.program) + " extension '" + e.module + "'";
  if (e.ok) return who + (e.cacheHit ? " came from the build cache" : " compiled in " + seconds(e.seconds));
  std::string s = who + " did not build" + because(e.cause);
  if (e.program != "reference")
    s += ": if the program goes on, it runs its PyTorch fallback and any number is the fallback's";
  return s;
}

}  // namespace ks::runs
