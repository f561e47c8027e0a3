#pragma once
// The context every result carries (docs/runner-protocol.md, "environment"): device and driver, CUDA, torch
// and Python versions (and whether libpython is linked in or shared), CPU model, host name, torch's CPU threads and, where NVML answers, GPU clocks.
#include <string>

#include "core/protocol/evaluate_result.h"

namespace ks::engine {

// `device` is "cuda" or "cpu". Needs the embedded Python (torch is asked for its versions and the GPU).
protocol::Environment probeEnvironment(const std::string& runner, const std::string& device);

}  // namespace ks::engine
