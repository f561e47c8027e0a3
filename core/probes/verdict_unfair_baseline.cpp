// unfair-baseline: the two models' precision settings side by side (torch-settings).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void unfairBaseline(const ProbeEvidence& e, Flags& out) {
  Json differences = Json::array();
  std::string first;
  for (const auto& [name, ref] : e.referenceSettingValues) {
    if (!precisionSetting(name)) continue;
    for (const auto& [other, cand] : e.candidateSettingValues)
      if (other == name && cand != ref) {
        differences.push_back({{"setting", name}, {"reference", ref}, {"candidate", cand}});
        if (first.empty()) first = name + " is " + ref + " for the reference and " + cand + " for the candidate";
      }
  }
  if (differences.empty()) return;
  add(out, "unfair-baseline", "suspicious", 0.6, "torch-settings",
      "The two models ran under different precision settings (" + first +
          "): the speedup compares computations of different precision.",
      {{"differences", differences}});
}

}  // namespace ks::engine::verdicts
