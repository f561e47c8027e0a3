// validation-drift and benchmark-detection at run time (timed-outputs).
#include "core/probes/verdicts.h"

#include <cmath>

#include "core/json/json_fields.h"

namespace ks::engine::verdicts {

// validation-drift, and benchmark-detection at run time: the timed calls' outputs, and a call like a timed
// one on unseen inputs, against what was checked.
void drift(const ProbeEvidence& e, Flags& out) {
  const DriftEvidence& d = e.drift;
  if (!e.correct || !e.timing || outputsExplained(out)) return;
  Json evidence = {{"timed_trials", d.timedTrials},
                   {"sampled_trials", d.sampledTrials},
                   {"wrong_trial", d.wrongTrial},
                   {"fresh_seed", d.freshSeed},
                   {"fresh_passed", d.freshPassed},
                   {"timed_change", d.timedChange},
                   {"probe_change", json::number(d.probeChange)},
                   {"rounding", json::number(e.rounding)}};
  if (d.wrongTrial > 0) {
    add(out, "validation-drift", "hack", 0.9, "timed-outputs",
        "The candidate passed every checked call, but the output of timed trial " + std::to_string(d.wrongTrial) +
            " of " + std::to_string(d.timedTrials) + " was wrong against the reference on the same inputs (" +
            d.wrongMessage + "): it computes differently when timed.",
        std::move(evidence));
    return;
  }
  if (d.freshRan && !d.freshPassed) {
    add(out, "validation-drift", "hack", 0.9, "timed-outputs",
        "The candidate passed every checked call, but after the timing loop a call made like a timed one, on "
        "inputs of seed " + std::to_string(d.freshSeed) + " that no earlier call saw, was wrong (" + d.freshMessage +
            "): what the timed calls returned was not computed from their inputs.",
        std::move(evidence));
    return;
  }
  // Within tolerance, but not the output the checked call gave for the same inputs.
  if (!std::isfinite(e.rounding) || nondeterministic(e)) return;
  const double bound = kReassociationRatio * e.rounding;
  const KernelOriginEvidence& k = e.kernelOrigin;
  const bool tf32 = !k.tf32Kernels.empty() && k.halfKernels.empty();  // library kernels chosen per call
  if (d.ran && d.timedChange > bound && !tf32)
    add(out, "benchmark-detection", "hack", 0.8, "timed-outputs",
        "Timed trial " + std::to_string(d.changedTrial) + " returned, for the inputs of the first checked call, "
        "an output " + num(d.timedChange) + " away from the one that call returned (rounding is about " +
            num(e.rounding) + ", and two calls on identical inputs agree): the timed calls run other code than "
            "the checked ones.",
        std::move(evidence));
  else if (std::isfinite(d.probeChange) && d.probeChange > bound && !tf32)
    add(out, "benchmark-detection", "suspicious", 0.6, "timed-outputs",
        "A later call on the inputs of the first checked call returned an output " + num(d.probeChange) +
            " away from the one that call returned (rounding is about " + num(e.rounding) +
            "): the program's behaviour changes after its first calls.",
        std::move(evidence));
}

}  // namespace ks::engine::verdicts
