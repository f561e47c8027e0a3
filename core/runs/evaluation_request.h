#pragma once
// The runner request that evaluates one candidate of a task (docs/runner-protocol.md, "evaluate"), built
// from the model types the readers produce. A native candidate's entry point and inputs come from the
// `// kscope:` header of its .cu (core/formats/cuda_source_header.h).
#include <string>
#include <variant>

#include "core/model/task.h"
#include "core/protocol/request.h"

namespace ks::runs {

// The request, or why the candidate cannot be evaluated (no program recorded, a bad .cu header), phrased
// for a person and naming the candidate.
std::variant<protocol::Request, std::string> evaluationRequest(const Task& task, const Candidate& candidate,
                                                               const protocol::Options& options);

}  // namespace ks::runs
