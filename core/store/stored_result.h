#pragma once
// One row of the results history: a re-run of a candidate, with its indexed facts, the runner's end event
// typed, and what the client kept beside it. Its result_json column (docs/store-schema.md) is the end event
// as the protocol's codec writes it (core/protocol/json_codec.h), with "repair" and "gpu" beside the event's
// keys; toResultJson writes it and fromResultJson reads it, through that codec.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/protocol/events.h"

namespace ks::store {

// What `--repair` changed in the program that ran (app/kscope/candidate_repair.h): stored as "repair"
// ({"original_code_hash", "repairs": [{"kind", "what", "lines"}...], "not_repaired"}), so the program that
// ran is known to be the repaired one.
struct StoredRepair {
  struct Change {
    std::string kind;  // a repair's name (core/repair/program_repair.h: "bind-wrapper", ...)
    std::string what;
    std::vector<int> lines;  // of the original program (1-based)
    bool operator==(const Change&) const = default;
  };
  std::string originalCodeHash;  // "sha256:<hex>" of the program as the file holds it
  std::vector<Change> repairs;
  std::vector<std::string> notRepaired;  // causes seen that no mechanical repair fixes
  bool operator==(const StoredRepair&) const = default;
};

struct StoredResult {
  std::int64_t id = 0;     // assigned by ResultStore::append
  std::string recordedAt;  // ISO-8601 UTC; append() stamps it when empty
  std::string sourceFile;  // the run file or kernel the task was read from, as given
  std::string taskKey;     // "L1/12"
  std::string candidateId;
  std::string codeHash;  // "sha256:<hex>" of the candidate's code
  std::string device;    // the device name the runner reported ("NVIDIA H100 80GB HBM3"), or "cpu"/"cuda"
  std::string outcome;   // "correct" | "incorrect" | "error"
  std::optional<bool> passed;     // correctness; nullopt for errors
  std::optional<double> speedup;  // reference median / candidate median; nullopt when not timed
  std::string errorKind;          // for errors: "build", "timeout", "crash", …
  std::string origin;             // who recorded it: "kscope run", "kscope batch", "kernelscope"

  // The runner's end event, typed: the evaluation of a result, the error of an error. A row the store takes
  // has one of them; a row read back whose event does not decode has neither, and `unreadable` says why.
  std::string requestId;  // the event's "id"
  std::optional<protocol::EvaluateResult> result;
  std::optional<protocol::ErrorInfo> error;
  std::string unreadable;

  // Beside the end event. A repaired program's run (`kscope run --repair`, `kscope batch --repair`).
  std::optional<StoredRepair> repair;
  // The CUDA_VISIBLE_DEVICES id of the runner that measured it, when the client keeps one runner per GPU
  // (kscope batch --gpus, the GUI on a machine with several); empty: the runner saw every GPU its client did.
  std::string gpu;
};

// The row of an evaluation's end: its end event, and the indexed facts read from it — outcome, passed,
// speedup, device (the device name, else the device), code hash (results) and error kind (errors). The
// caller sets the rest.
StoredResult fromEvaluateEnd(protocol::EvaluateEnd end);
// The same for an end event as a runner client returns it, its result decoded by the protocol's decoder.
// One whose result does not read as an evaluation has no end event and `unreadable` says why.
StoredResult fromEndEvent(const protocol::EndEvent& end);
// The same for the JSON of an end event as result_json holds it (or a kscope batch line's "event"), "repair"
// and "gpu" beside its keys included.
StoredResult fromResultJson(const nlohmann::ordered_json& resultJson);
// result_json for `row`: its end event, then "repair" and "gpu" when it has them. A row without an end event
// has none (null).
nlohmann::ordered_json toResultJson(const StoredResult& row);

// "repair" as result_json (and kscope's --json and batch lines) hold it, and read back; nullopt when it is
// not an object of that form.
nlohmann::ordered_json repairJson(const StoredRepair& repair);
std::optional<StoredRepair> repairFromJson(const nlohmann::ordered_json& repair);

}  // namespace ks::store
