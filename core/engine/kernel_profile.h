#pragma once
// The GPU kernels one model call launches, from torch.profiler (CUDA activity, exported as a Chrome trace so
// each kernel keeps its stream): name, stream, launches and total device time, in order of first launch.
// The call is bracketed by two marker kernels on the current stream (chrome_trace.h), and CUDA
// synchronization events are recorded where this torch's profiler can, so the trace shows which streams the
// call's work ran on and whether the current stream waited for them (stream_evidence.h).
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/probes/chrome_trace.h"
#include "core/protocol/evaluate_result.h"

namespace ks::engine {

struct ProfiledCall {
  std::vector<protocol::KernelLaunch> kernels;  // the markers left out
  ChromeTrace trace;
};

// Runs `call` once under the profiler. Exceptions from `call` propagate (the profiler is stopped first).
ProfiledCall profileKernels(const std::function<void()>& call, const std::string& model,
                            const std::filesystem::path& traceFile);

}  // namespace ks::engine
