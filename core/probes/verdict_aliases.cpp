// output-aliases-input: an output that shares storage with an input, or a buffer every call returns
// (storage-identity, repeat-calls).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void aliases(const ProbeEvidence& e, Flags& out) {
  for (const AliasEvidence& a : e.aliases) {
    if (a.referenceToo) continue;
    const std::string which = "input " + std::to_string(a.input);
    add(out, "output-aliases-input", a.inputMutated ? "hack" : "suspicious", a.inputMutated ? 0.9 : 0.6,
        "storage-identity",
        a.inputMutated
            ? "The output is " + which + " itself, overwritten in place: the caller's input is gone."
            : "The output shares storage with " + which + ", which the reference's does not.",
        {{"input", a.input}, {"seed", a.seed}, {"input_mutated", a.inputMutated}});
    return;
  }
  const RepeatEvidence& r = e.repeat;
  if ((r.sameStorageRepeat || r.sameStorageFresh) && r.firstResultOverwritten && !repeatStale(r) &&
      !repeatIndependent(r))
    add(out, "output-aliases-input", "suspicious", 0.6, "repeat-calls",
        "Every call returns the same buffer: the result of a previous call changes when the model is called "
        "again.",
        {{"same_object", r.sameObject},
         {"same_storage_repeat", r.sameStorageRepeat},
         {"same_storage_fresh", r.sameStorageFresh},
         {"first_result_overwritten", r.firstResultOverwritten}});
}

}  // namespace ks::engine::verdicts
