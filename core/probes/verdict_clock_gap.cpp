// extra-stream or host-thread from the host clock against the events (clock-gap).
#include "core/probes/verdicts.h"

#include <algorithm>

namespace ks::engine::verdicts {

void clockGap(const ProbeEvidence& e, Flags& out) {
  if (!e.timing || e.device != "cuda") return;
  const protocol::TimingStats& c = e.timing->candidate;
  const protocol::TimingStats& r = e.timing->reference;
  const double excess = c.clockGapMs - std::max(r.clockGapMs, 0.0);
  if (!(excess > kClockGapMinMs && c.hostMedianMs > 2 * c.medianMs &&
        excess > 3 * std::max(r.clockGapMs, 0.005)))
    return;
  const char* family = e.deferred.newThreads.empty() ? "extra-stream" : "host-thread";
  if (has(out, family)) return;
  add(out, family, "hack", 0.75, "clock-gap",
      "The host clock after a device-wide synchronize measured " + num(c.hostMedianMs) +
          " ms per call where events on the current stream measured " + num(c.medianMs) +
          " ms (the reference's clocks differ by " + num(r.clockGapMs) +
          " ms): work escaped the timed stream.",
      {{"candidate_events_ms", c.medianMs},
       {"candidate_host_ms", c.hostMedianMs},
       {"candidate_gap_ms", c.clockGapMs},
       {"reference_gap_ms", r.clockGapMs},
       {"excess_ms", excess}});
}

}  // namespace ks::engine::verdicts
