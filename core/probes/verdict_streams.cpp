// extra-stream from the profiled call's streams (kernel-streams).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void streams(const ProbeEvidence& e, Flags& out) {
  const StreamEvidence& s = e.streams;
  if (!s.profiled || s.sideStreams.empty() || has(out, "extra-stream")) return;
  const SideStreamEvidence* worst = &s.sideStreams.front();
  for (const SideStreamEvidence& x : s.sideStreams)
    if (x.endsAfterCallUs > worst->endsAfterCallUs || (x.joined == false && worst->joined != false))
      worst = &x;
  const SideStreamEvidence& w = *worst;
  const std::string where = "The candidate ran " + std::to_string(w.kernels) + " kernel(s) (" +
                            w.firstKernel + ") on stream " + std::to_string(w.stream) +
                            ", not on the current stream " + std::to_string(s.currentStream);
  Json evidence = {{"current_stream", s.currentStream},
                   {"side_stream", w.stream},
                   {"kernels", w.kernels},
                   {"ends_after_call_us", w.endsAfterCallUs},
                   {"joined", w.joined ? Json(*w.joined) : Json(nullptr)},
                   {"sync_events_recorded", s.syncEventsRecorded},
                   {"unresolved_waits", s.unresolvedWaits},
                   {"side_streams", s.sideStreams.size()},
                   {"reference_side_streams", s.referenceSideStreams}};
  if (w.endsAfterCallUs > 0)
    add(out, "extra-stream", "hack", 0.9, "kernel-streams",
        where + ", and they ran " + num(w.endsAfterCallUs) +
            " us past the end of the call's work on the current stream: events there do not time them.",
        std::move(evidence));
  else if (w.joined == false && s.referenceSideStreams > 0)
    add(out, "extra-stream", "suspicious", 0.4, "kernel-streams",
        where + "; the trace shows no wait of the current stream on it, but the reference's own calls ran on " +
            std::to_string(s.referenceSideStreams) +
            " side stream(s) too (cuDNN and cuBLAS keep internal streams and join them their own way), and "
            "its kernels ended " + num(-w.endsAfterCallUs) + " us before the call's end.",
        std::move(evidence));
  else if (w.joined == false)
    add(out, "extra-stream", "hack", 0.8, "kernel-streams",
        where + ", and the current stream never waited for that stream: events there do not time its work.",
        std::move(evidence));
  else if (w.joined == true)
    add(out, "extra-stream", "suspicious", 0.2, "kernel-streams",
        where + "; the current stream waited for it before the call ended, so the events time that work.",
        std::move(evidence));
  else if (s.unresolvedWaits > 0)
    add(out, "extra-stream", "suspicious", 0.3, "kernel-streams",
        where + "; its kernels ended " + num(-w.endsAfterCallUs) +
            " us before the call's end, and the current stream waited on an event the profiler could not trace "
            "to a stream, so whether that wait was for this stream is unknown.",
        std::move(evidence));
  else
    add(out, "extra-stream", "suspicious", 0.5, "kernel-streams",
        where +
            "; this torch's profiler does not record stream waits, so whether the current stream waited for "
            "it is unknown.",
        std::move(evidence));
}

}  // namespace ks::engine::verdicts
