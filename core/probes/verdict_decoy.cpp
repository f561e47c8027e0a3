// gc-scan at run time: a decoy tensor in the caller's frame that the candidate returned (decoy).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void decoy(const ProbeEvidence& e, Flags& out) {
  const DecoyEvidence& d = e.decoy;
  if (!d.ran || !(d.sharesStorage || (d.numel > 0 && d.equalToDecoy == d.numel))) return;
  add(out, "gc-scan", "hack", 0.95, "decoy",
      std::string("A tensor with the right first row and a wrong remainder was alive in the caller's frame, "
                  "and the candidate returned ") +
          (d.sharesStorage ? "it" : "a copy of it") + ": it takes its answer from the harness's memory.",
      {{"returned_the_decoy", d.sharesStorage}, {"equal_to_decoy", d.equalToDecoy}, {"numel", d.numel}});
}

}  // namespace ks::engine::verdicts
