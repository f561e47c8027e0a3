// nondeterminism: two calls on identical inputs that differ by more than reassociation explains.
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void nondeterminism(const ProbeEvidence& e, Flags& out) {
  const NondeterminismEvidence& n = e.nondeterminism;
  if (!nondeterministic(e) || e.poisoned || e.nonfinite || has(out, "host-thread") || has(out, "extra-stream"))
    return;
  add(out, "nondeterminism", n.withinTolerance ? "suspicious" : "hack", n.withinTolerance ? 0.6 : 0.85,
      "nondeterminism",
      "Two calls on identical inputs returned outputs " + num(n.maxDifference) + " apart (" +
          count(n.differing, n.numel) + " values differ), " + num(n.maxDifference / e.rounding) +
          " times the size of rounding (" + num(e.rounding) + ")" +
          (n.withinTolerance ? ": more than reordered float sums explain."
                             : ", and beyond the tolerance of each other: at most one of them is right."),
      {{"max_difference", n.maxDifference},
       {"differing", n.differing},
       {"numel", n.numel},
       {"rounding", e.rounding},
       {"within_tolerance", n.withinTolerance}});
}

}  // namespace ks::engine::verdicts
