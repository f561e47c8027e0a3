// changed-inputs: the candidate program's own get_inputs/get_init_inputs against the reference's (program-inputs).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void changedInputs(const ProbeEvidence& e, Flags& out) {
  const InputsEvidence& in = e.inputs;
  if (in.differences.empty()) return;
  std::vector<int> lines;
  for (int line : {in.getInputsLine, in.getInitInputsLine})
    if (line > 0) lines.push_back(line);
  add(out, "changed-inputs", "hack", 0.9, "program-inputs",
      "The candidate program's own inputs define another problem: " + in.differences.front() +
          " (the runner used the reference's).",
      {{"differences", in.differences}}, lines);
}

}  // namespace ks::engine::verdicts
