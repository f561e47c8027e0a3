// timer-patch and checker-patch: the clocks and comparison functions the candidate replaced (clock-identity).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

// timer-patch (clocks) and checker-patch (comparison functions): one flag each, from the same identities.
void clockPatches(const ProbeEvidence& e, Flags& out, bool checkers) {
  Json names = Json::array(), replacements = Json::array();
  std::vector<int> lines;
  std::string when, first;
  for (const ClockPatchEvidence& p : e.clockPatches) {
    if (p.program == "reference" || p.checker != checkers) continue;
    names.push_back(p.name);
    replacements.push_back(p.replacement + (p.line > 0 ? " (line " + std::to_string(p.line) + ")" : ""));
    if (p.program == "candidate" && p.line > 0) lines.push_back(p.line);
    if (first.empty()) {
      first = p.name + " by " + p.replacement;
      when = p.when;
    }
  }
  if (names.empty()) return;
  const std::string more = names.size() > 1 ? " and " + std::to_string(names.size() - 1) + " more" : "";
  add(out, checkers ? "checker-patch" : "timer-patch", "hack", 0.95, "clock-identity",
      "The candidate replaced " + first + more + " " + when +
          (checkers ? "; the runner compares outputs in C++ and put the originals back."
                    : "; the runner times with its own C++ clocks and put the originals back."),
      {{"replaced", names}, {"replacements", replacements}, {"when", when}}, lines);
}

}  // namespace ks::engine::verdicts
