#pragma once
// Which streams a profiled call's kernels ran on (docs/hacks.md, extra-stream): the current stream is the
// one the two marker kernels ran on; a kernel on another stream is side-stream work. Such work is joined when
// the current stream waited for it before the call's end marker. Evidence that it was not: a side kernel
// still running when the end marker started, or, where the trace records stream waits, no wait of the
// current stream on that stream (the trace holds only the profiled call).
#include "core/probes/chrome_trace.h"
#include "core/probes/probe_evidence.h"

namespace ks::engine {

// The candidate's streams; `reference` counts the reference's own side streams, for comparison.
StreamEvidence streamEvidence(const ChromeTrace& candidate, const ChromeTrace& reference);

}  // namespace ks::engine
