#pragma once
// A request's end as the JSON of its end event ({"id", "event": "result", "ok", "result"} or
// {"id", "event": "error", "error": {...}}): what `kscope run --json` prints and a kscope batch line holds.
// The results store writes its own from the typed row (core/store/stored_result.h).
#include <nlohmann/json.hpp>

#include "core/protocol/events.h"

namespace ks::runs {

nlohmann::ordered_json endEventJson(const protocol::EndEvent& end);

}  // namespace ks::runs
