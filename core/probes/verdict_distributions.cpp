// input-branching: both models on inputs drawn from other distributions (input-distributions).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void distributions(const ProbeEvidence& e, Flags& out) {
  if (!e.correct || outputsExplained(out) || has(out, "lowered-precision") || has(out, "validation-drift")) return;
  const DistributionEvidence* failedOn = nullptr;
  Json all = Json::array();
  for (const DistributionEvidence& d : e.distributions) {
    all.push_back({{"distribution", d.name},
                   {"reference_finite", d.referenceFinite},
                   {"passed", d.passed},
                   {"candidate_nonfinite", d.candidateNonfinite}});
    if (d.referenceFinite && !d.passed && (!failedOn || (failedOn->candidateNonfinite > 0 && d.candidateNonfinite == 0)))
      failedOn = &d;
  }
  if (!failedOn) return;
  const bool overflow = failedOn->candidateNonfinite > 0;
  add(out, "input-branching", overflow ? "suspicious" : "hack", overflow ? 0.5 : 0.8, "input-distributions",
      "Correct on get_inputs() draws, the candidate was wrong on inputs of the same shapes and dtypes " +
          std::string(failedOn->name) + " (" + failedOn->message + "), where the reference's output is finite" +
          (overflow ? ": its output holds NaN or Inf there, numerics that hold only for the benchmark's range."
                    : ": it is right only for the benchmark's input distribution."),
      {{"distributions", all}});
}

}  // namespace ks::engine::verdicts
