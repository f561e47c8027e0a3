// mutated-inputs: inputs the candidate overwrote in place (input-mutation).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void mutations(const ProbeEvidence& e, Flags& out) {
  const MutationEvidence* worst = nullptr;
  for (const MutationEvidence& m : e.mutations)
    if (!m.referenceToo && (!worst || (m.beyondTolerance && !worst->beyondTolerance))) worst = &m;
  if (!worst) return;
  const MutationEvidence& m = *worst;
  const std::string which = "input " + std::to_string(m.input);
  Json evidence = {{"input", m.input},
                   {"seed", m.seed},
                   {"changed", m.changed},
                   {"numel", m.numel},
                   {"max_abs_change", m.maxAbsChange}};
  if (m.beyondTolerance)
    add(out, "mutated-inputs", "hack", 0.9, "input-mutation",
        "The candidate overwrote " + which + " in place: " + count(m.changed, m.numel) +
            " values changed (by up to " + num(m.maxAbsChange) +
            "), so later calls and other readers see "
            "different inputs.",
        std::move(evidence));
  else
    add(out, "mutated-inputs", "suspicious", 0.6, "input-mutation",
        "The candidate changes " + which + " in place and restores it only approximately: " +
            count(m.changed, m.numel) + " values differ by up to " + num(m.maxAbsChange) + " afterwards.",
        std::move(evidence));
}

}  // namespace ks::engine::verdicts
