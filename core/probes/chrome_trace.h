#pragma once
// The parts of a torch.profiler Chrome trace the engine reads: GPU kernels (name, stream, start, duration,
// launch order) and, where the profiler records CUDA synchronization events, the waits of one stream on
// another. The profiled call is bracketed by two marker kernels launched on the current stream
// (kMarkerKernel): the first and the last by launch order are flagged `marker`.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/protocol/evaluate_result.h"

namespace ks::engine {

inline constexpr std::string_view kMarkerKernel = "spin_kernel";  // torch.cuda._sleep's kernel

struct TraceKernel {
  std::string name;
  std::int64_t stream = 0;
  double startUs = 0, durationUs = 0;
  std::int64_t correlation = 0;  // launch order
  bool marker = false;           // one of the two kernels bracketing the call
};

struct TraceWait {
  std::int64_t stream = 0;        // the stream that waits
  std::int64_t waitOnStream = -1;  // for work recorded on this one (-1: the profiler did not say)
};

struct ChromeTrace {
  bool valid = false;                // the text was a trace
  std::vector<TraceKernel> kernels;  // by start time
  std::vector<TraceWait> waits;      // "Stream Wait Event" synchronization records
  bool syncEventsRecorded = false;   // the trace has synchronization records at all
};

ChromeTrace readChromeTrace(const std::string& traceJson);

// The GPU time of a traced call: the union of its kernels' intervals, the two markers left out, so kernels
// that overlap on several streams count once. 0 for a trace without kernels.
double kernelBusyMs(const ChromeTrace& trace);

// The kernels of a Chrome trace as torch.profiler exports it ("cat": "kernel", "args": {"stream": N}), the
// two call markers left out.
std::vector<protocol::KernelLaunch> kernelsFromChromeTrace(const ChromeTrace& trace,
                                                           const std::string& model);

}  // namespace ks::engine
