// lazy-output, stale-memory and nonfinite-output: what the output holds (output-type, memory-poison, nonfinite).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void outputContents(const ProbeEvidence& e, Flags& out) {
  if (e.lazy) {
    const LazyOutputEvidence& l = *e.lazy;
    const std::string what =
        l.tensorSubclass ? "a torch.Tensor subclass over " + std::to_string(l.storageBytes) +
                               " bytes of storage where its shape needs " + std::to_string(l.neededBytes)
                         : "not a tensor but an object implementing __torch_function__";
    add(out, "lazy-output", "hack", 0.95, "output-type",
        "The output is a " + l.type + ", " + what +
            ": its values are produced when something reads them, not in the timed call.",
        {{"type", l.type},
         {"tensor_subclass", l.tensorSubclass},
         {"storage_bytes", l.storageBytes},
         {"needed_bytes", l.neededBytes}});
  }
  if (e.poisoned)
    add(out, "stale-memory", "hack", 0.9, "memory-poison",
        count(e.poisoned->poisoned, e.poisoned->numel) +
            " output values still hold the poison written into " + "memory before the candidate ran (" +
            e.poisoned->pattern + "): the output was returned unwritten.",
        {{"seed", e.poisoned->seed},
         {"poisoned", e.poisoned->poisoned},
         {"numel", e.poisoned->numel},
         {"pattern", e.poisoned->pattern}});
  if (e.nonfinite)
    add(out, "nonfinite-output", "hack", 0.9, "nonfinite",
        count(e.nonfinite->count, e.nonfinite->numel) +
            " output values are NaN or infinite where the reference's are finite (seed " +
            std::to_string(e.nonfinite->seed) +
            (e.nonfinite->probeCall ? ", in a call of the probes phase after the checked calls" : "") +
            "): a NaN compares false with every bound, so a check written as error > tolerance passes it.",
        {{"seed", e.nonfinite->seed},
         {"nonfinite", e.nonfinite->count},
         {"numel", e.nonfinite->numel},
         {"probe_call", e.nonfinite->probeCall}});
}

}  // namespace ks::engine::verdicts
