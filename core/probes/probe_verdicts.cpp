// judgeProbes: every verdict (verdict_<name>.cpp) in turn over one ProbeEvidence. The order matters: a verdict
// reads the flags of those before it (has(out, family)) and stands back where one already explains the outputs.
#include "core/probes/probe_verdicts.h"

#include "core/probes/verdicts.h"

namespace ks::engine {

std::vector<protocol::RuntimeFlag> judgeProbes(const ProbeEvidence& e) {
  verdicts::Flags out;
  verdicts::clockPatches(e, out, false);
  verdicts::clockPatches(e, out, true);
  verdicts::importChanges(e, out);
  verdicts::refusedWrites(e, out);
  verdicts::changedInputs(e, out);
  verdicts::outputContents(e, out);
  verdicts::mutations(e, out);
  verdicts::aliases(e, out);
  verdicts::repeatCalls(e, out);
  verdicts::decoy(e, out);
  verdicts::weakTask(e, out);  // before precision: an error the size of a zero output's is not arithmetic
  verdicts::precision(e, out);
  verdicts::deferredWork(e, out);
  verdicts::streams(e, out);
  verdicts::kernelOrigin(e, out);
  verdicts::clockGap(e, out);
  verdicts::physicalBounds(e, out);
  // The families that read outputs, inputs and settings again come last: they stand back where another
  // family already explains the outputs.
  verdicts::drift(e, out);
  verdicts::distributions(e, out);
  verdicts::nondeterminism(e, out);
  verdicts::unfairBaseline(e, out);
  verdicts::slowedReference(e, out);
  verdicts::l2Persistence(e, out);
  return out;
}

}  // namespace ks::engine
