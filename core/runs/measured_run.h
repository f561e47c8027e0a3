#pragma once
// A results-store row for display: its indexed facts, and the runner's end event in the protocol's types —
// the evaluation for a result, the error otherwise — with what the client kept beside it.
#include <optional>
#include <string>

#include "core/protocol/evaluate_result.h"
#include "core/protocol/events.h"
#include "core/runs/outcome.h"
#include "core/store/stored_result.h"

namespace ks::runs {

struct MeasuredRun {
  store::StoredResult row;  // its end event, repair and gpu are moved to the members below
  std::optional<protocol::EvaluateResult> result;
  std::optional<protocol::ErrorInfo> error;
  std::string unreadable;  // why the stored event could not be decoded, when neither is set
  // A repaired program's run (`kscope run --repair`, result_row.h): what was repaired; nullopt when the
  // program was not repaired.
  std::optional<store::StoredRepair> repair;
  // The CUDA_VISIBLE_DEVICES id of the per-GPU runner that measured it (result_row.h); empty when the client
  // kept no runner per GPU.
  std::string gpu;

  bool correct() const { return outcomeOf(row.outcome) == Outcome::Correct; }
};

// The run of a row: one read back from the store, or the row of a run that just ended (resultRow). The row
// is typed already; nothing is decoded.
MeasuredRun measuredRun(store::StoredResult row);

}  // namespace ks::runs
