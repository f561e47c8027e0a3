#pragma once
// The results-store row of one re-run (docs/store-schema.md), the same for every client that records one.
#include <optional>
#include <string>

#include "core/store/stored_result.h"

namespace ks::runs {

// What ran: the candidate of a task read from a file, and the program text that was sent.
struct RunSubject {
  std::string sourceFile;  // the run file, folder or program the task was read from, as the client names it
  std::string taskKey;     // "L1/12"
  std::string candidateId;
  std::string code;  // the program sent to the runner (an edited one included)
  // --repair: what changed (app/kscope/candidate_repair.h), so the program that ran is known to be the
  // repaired one. nullopt: not repaired.
  std::optional<store::StoredRepair> repair;
  // Which GPU's runner measured it, when the client keeps one runner per GPU (kscope batch --gpus, the GUI
  // on a machine with several): that runner's CUDA_VISIBLE_DEVICES id; empty: the runner saw every GPU its
  // client did.
  std::string gpu;
};

// The row for the runner's answer `end` (store::fromEndEvent of the runner client's end event,
// store::fromResultJson of one a file holds): its own facts, the subject, the code hash of subject.code when
// the runner did not report one, `requestedDevice` when the runner never named its device ("default" when
// that is empty too), `origin` ("kscope run", "kscope batch", "kernelscope"), and the time now as
// recordedAt.
store::StoredResult resultRow(store::StoredResult end, const RunSubject& subject,
                              const std::string& requestedDevice, const std::string& origin);

}  // namespace ks::runs
