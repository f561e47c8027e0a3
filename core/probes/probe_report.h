#pragma once
// The `probes` object of an evaluate result (docs/runner-protocol.md): per probe, whether it ran (or why
// not) and what it measured, whether or not a flag came of it.
#include <nlohmann/json.hpp>

#include "core/probes/probe_evidence.h"

namespace ks::engine {

nlohmann::ordered_json probeReport(const ProbeEvidence& evidence);

}  // namespace ks::engine
