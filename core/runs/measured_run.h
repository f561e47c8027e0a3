#pragma once
// A results-store row read back for display: its indexed facts, and the runner's end event it keeps
// decoded into the protocol's types — the evaluation for a result, the error otherwise.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "core/protocol/evaluate_result.h"
#include "core/protocol/events.h"
#include "core/runs/outcome.h"
#include "core/store/stored_result.h"

namespace ks::runs {

struct MeasuredRun {
  store::StoredResult row;  // its `result` JSON is dropped once decoded
  std::optional<protocol::EvaluateResult> result;
  std::optional<protocol::ErrorInfo> error;
  std::string unreadable;  // why the stored event could not be decoded, when neither is set
  // A repaired program's run (`kscope run --repair`, result_row.h): {"original_code_hash", "repairs":
  // [{"kind", "what", "lines"}...]} as stored beside the end event; null when the program was not repaired.
  nlohmann::ordered_json repair;
  // The CUDA_VISIBLE_DEVICES id of the per-GPU runner that measured it (result_row.h, "gpu" beside the end
  // event); empty when the client kept no runner per GPU.
  std::string gpu;

  bool correct() const { return outcomeOf(row.outcome) == Outcome::Correct; }
};

// A row read back from the store: its `result` JSON decoded.
MeasuredRun readMeasuredRun(store::StoredResult row);
// The row of a run that just ended, with its end event as the runner client returned it (typed): nothing is
// decoded again from the row's JSON. The row's `result` JSON is dropped.
MeasuredRun measuredRun(store::StoredResult row,
                        const std::variant<protocol::ResultEvent, protocol::ErrorEvent>& end);

}  // namespace ks::runs
