#pragma once
// --repair for `kscope run`, `batch` and `check --run`: the candidate's program is replaced by its repaired
// text (core/repair/program_repair.h) for this call only (the input file is never changed), and the result
// records what changed. The "this number is the PyTorch fallback's" note is core/runs/fallback_note.h.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/model/candidate.h"
#include "core/repair/program_repair.h"
#include "core/store/stored_result.h"

namespace ks::cli {

struct AppliedRepair {
  std::string originalCodeHash;  // "sha256:<hex>" of the program as the file holds it
  std::vector<repair::Repair> repairs;
  std::vector<std::string> notRepaired;
  std::string diff;
};

// Repairs `candidate`'s Python program in place (a copy the caller owns); nullopt when it has none or
// nothing was repaired.
std::optional<AppliedRepair> repairCandidate(Candidate& candidate, const std::string& arch);

// What the results store keeps of it beside the run's end event (core/store/stored_result.h).
store::StoredRepair storedRepair(const AppliedRepair& r);
// {"original_code_hash": ..., "repairs": [{kind, what, lines}, ...], "not_repaired": [...]}: the store's
// "repair", as --json and batch lines print it.
nlohmann::ordered_json repairJson(const AppliedRepair& r);

}  // namespace ks::cli
