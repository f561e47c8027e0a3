// input-independent, cached-output and cuda-graph: calls repeated on the same, refilled, perturbed and new
// inputs (repeat-calls).
#include "core/probes/verdicts.h"

#include <algorithm>
#include <cmath>

#include "core/json/json_fields.h"

namespace ks::engine {

bool repeatTimeCollapsed(const RepeatEvidence& r) {
  return std::isfinite(r.repeatMs) && r.freshMs > kCollapseMinMs &&
         r.repeatMs < kCollapseRatio * std::min(r.freshMs, r.referenceMs);
}

}  // namespace ks::engine

namespace ks::engine::verdicts {
namespace {

Json repeatJson(const RepeatEvidence& r) {
  return {{"same_object", r.sameObject},
          {"same_storage_repeat", r.sameStorageRepeat},
          {"same_storage_fresh", r.sameStorageFresh},
          {"independent_of_inputs", r.independent},
          {"references_differ", r.referencesDiffer},
          {"stale_after_refill", r.staleAfterRefill},
          {"stale_after_perturb", r.staleAfterPerturb},
          {"perturb_changes_reference", r.perturbChangesReference},
          {"repeat_ms", json::number(r.repeatMs)},
          {"fresh_ms", json::number(r.freshMs)},
          {"reference_ms", json::number(r.referenceMs)}};
}

}  // namespace

void repeatCalls(const ProbeEvidence& e, Flags& out) {
  const RepeatEvidence& r = e.repeat;
  // Outputs that hold poison or NaN compare equal whatever the inputs were: no evidence of caching then.
  if (!r.ran || e.poisoned || e.nonfinite) return;
  const bool stale = repeatStale(r), independent = repeatIndependent(r);
  const bool stored = (r.sameStorageRepeat || r.sameStorageFresh) && (stale || independent);
  if (independent)
    add(out, "input-independent", "hack", 0.85, "repeat-calls",
        "Inputs of two seeds gave bitwise identical outputs while the reference's differ: the output does "
        "not "
        "depend on the input values.",
        repeatJson(r));
  if ((stale && !independent) || stored) {
    std::string message =
        r.staleAfterRefill
            ? "After its inputs were overwritten in place with other values, the candidate returned its "
              "earlier output unchanged"
        : stale ? "After one value of each input was changed in place, the output stayed bitwise identical "
                  "while the reference's changed"
                : "Every call returns the same stored tensor whatever its inputs";
    add(out, "cached-output", "hack", 0.9, "repeat-calls",
        message + ": it returns a result kept from an earlier call.", repeatJson(r));
  } else if (repeatTimeCollapsed(r)) {
    add(out, "cached-output", "suspicious", 0.4, "repeat-calls",
        "A second call on the same inputs took " + num(r.repeatMs) + " ms where a call on new inputs took " +
            num(r.freshMs) + " ms and the reference " + num(r.referenceMs) + " ms.",
        repeatJson(r));
  }
  if (!r.holdsCudaGraph) return;
  if (stale || independent)
    add(out, "cuda-graph", "hack", 0.8, "repeat-calls",
        "The candidate keeps a CUDA graph and its output ignores new input values: it replays work captured "
        "on earlier inputs.",
        repeatJson(r));
  else if (r.sameStorageRepeat || r.sameStorageFresh)
    add(out, "cuda-graph", "suspicious", 0.6, "repeat-calls",
        "The candidate keeps a CUDA graph and returns its static output buffer, which the next replay "
        "overwrites.",
        repeatJson(r));
  else if (std::isfinite(r.repeatMs) && r.freshMs > kRecaptureRatio * r.repeatMs &&
           r.freshMs - r.repeatMs > kRecaptureMinMs)
    add(out, "cuda-graph", "suspicious", 0.6, "repeat-calls",
        "The candidate keeps a CUDA graph tied to its inputs' addresses: a call on tensors at new addresses took " +
            num(r.freshMs) + " ms, a repeat at the same addresses " + num(r.repeatMs) +
            " ms. Timed calls that reuse buffers replay a graph captured for them; the capture is left out, and "
            "correctness rests on the allocator handing back the same addresses.",
        repeatJson(r));
}

}  // namespace ks::engine::verdicts
