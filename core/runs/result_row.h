#pragma once
// The results-store row of one re-run (docs/store-schema.md), the same for every client that records one.
#include <nlohmann/json.hpp>
#include <string>

#include "core/store/stored_result.h"

namespace ks::runs {

// What ran: the candidate of a task read from a file, and the program text that was sent.
struct RunSubject {
  std::string sourceFile;  // the run file, folder or program the task was read from, as the client names it
  std::string taskKey;     // "L1/12"
  std::string candidateId;
  std::string code;  // the program sent to the runner (an edited one included)
  // --repair: {"original_code_hash", "repairs": [...]} (app/kscope/candidate_repair.h); stored in the row's
  // result as "repair", so the program that ran is known to be the repaired one. Null: not repaired.
  nlohmann::ordered_json repair;
  // Which GPU's runner measured it, when the client keeps one runner per GPU (kscope batch --gpus, the GUI
  // on a machine with several): that runner's CUDA_VISIBLE_DEVICES id. Stored in the row's result as "gpu";
  // empty: the runner saw every GPU its client did, and nothing is stored.
  std::string gpu;
};

// The row for the runner's end event: its own facts (store::recordFromEndEvent), the subject, the code
// hash of subject.code when the runner did not report one, `requestedDevice` when the runner never named
// its device ("default" when that is empty too), `origin` ("kscope run", "kscope batch", "kernelscope"),
// and the time now as recordedAt.
store::StoredResult resultRow(const nlohmann::ordered_json& endEvent, const RunSubject& subject,
                              const std::string& requestedDevice, const std::string& origin);

}  // namespace ks::runs
