// l2-persistence at run time (GPU): what the candidate left of persisting L2.
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void l2Persistence(const ProbeEvidence& e, Flags& out) {
  const L2Evidence& l = e.l2;
  // Any change of the carve-out counts, smaller too: a GPU may start with one (11 796 480 bytes on the H200s
  // of docs/gpu-results.md), and a candidate that resizes it to fit its own operands is managing L2.
  if (!l.checked || !(l.limitAfter != l.limitBefore || (l.windowPersisting && l.windowBytes > 0))) return;
  add(out, "l2-persistence", "suspicious", 0.7, "l2-persistence",
      "The candidate left " + std::to_string(l.limitAfter) + " bytes of L2 reserved for persisting accesses (" +
          std::to_string(l.limitBefore) + " before any program loaded)" +
          (l.windowPersisting ? " and a persisting access-policy window of " + std::to_string(l.windowBytes) +
                                    " bytes on the current stream"
                              : "") +
          "; the runner demoted persisting lines before each timed trial, so its times are without them.",
      {{"limit_before", l.limitBefore},
       {"limit_after", l.limitAfter},
       {"window_bytes", l.windowBytes},
       {"window_persisting", l.windowPersisting}});
}

}  // namespace ks::engine::verdicts
