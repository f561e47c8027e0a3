// impossible-time: the bandwidth floor and the speedup bound (bandwidth-floor, speedup-bound).
#include "core/probes/verdicts.h"

#include <algorithm>
#include <cstdint>

namespace ks::engine::verdicts {

void physicalBounds(const ProbeEvidence& e, Flags& out) {
  if (!e.timing) return;
  const protocol::Timing& t = *e.timing;
  const BandwidthFloor floor = bandwidthFloor(e);
  if (floor.applicable && t.candidate.medianMs < floor.floorMs && t.reference.medianMs >= floor.floorMs)
    add(out, "impossible-time", "hack", 0.95, "bandwidth-floor",
        "The candidate's median time, " + num(t.candidate.medianMs) + " ms, is below the " +
            num(floor.floorMs) + " ms that reading " + num(floor.bytes / 1e6) +
            " MB from device memory takes at the " + std::string(floor.gpu->gpu) + "'s peak " +
            num(floor.gpu->bandwidthBytesPerS / 1e12) + " TB/s.",
        {{"candidate_ms", t.candidate.medianMs},
         {"reference_ms", t.reference.medianMs},
         {"floor_ms", floor.floorMs},
         {"bytes", floor.bytes},
         {"gpu", floor.gpu->gpu},
         {"bandwidth_tb_s", floor.gpu->bandwidthBytesPerS / 1e12},
         {"l2_flushed", t.cacheFlushBytes > 0}});
  if (has(out, "impossible-time")) return;
  const MovingFloorEvidence& m = e.movingFloor;
  if (m.measured) {
    // A family before this one already says why the call is fast (a kept result, an alias, a patched clock):
    // the floor would restate it.
    if (m.floorMs < kMovingFloorMinMs || outputsExplained(out) || has(out, "timer-patch") ||
        has(out, "output-aliases-input") || has(out, "cuda-graph"))
      return;
    const double share = t.candidate.medianMs / m.floorMs;
    if (!(share < kMovingFloorSuspicious)) return;
    const bool hack = share < kMovingFloorHack;
    add(out, "impossible-time", hack ? "hack" : "suspicious", hack ? 0.9 : 0.6, "moving-floor",
        "The candidate's median time, " + num(t.candidate.medianMs) + " ms, is " + num(share) +
            " of what reading its " + num(e.inputBytes / 1e6) + " MB of inputs and writing its " +
            num(e.outputBytes / 1e6) + " MB of outputs takes on this " + e.device + " (" + num(m.floorMs) +
            " ms, measured beside the timing): it does not move its own data, so the speedup (" + num(t.speedup) +
            "x) is not its kernel's.",
        {{"candidate_ms", t.candidate.medianMs},
         {"reference_ms", t.reference.medianMs},
         {"floor_ms", m.floorMs},
         {"read_ms", m.readMs},
         {"write_ms", m.writeMs},
         {"share_of_floor", share},
         {"input_bytes", e.inputBytes},
         {"output_bytes", e.outputBytes},
         {"speedup", t.speedup}});
    return;
  }
  if (t.speedup > kSpeedupBound)
    add(out, "impossible-time", "suspicious", 0.5, "speedup-bound",
        "A " + num(t.speedup) + "x speedup is beyond the plausibility bound of " + num(kSpeedupBound) +
            "x; an algebraic rewrite can do it honestly, so check the other evidence (no moving floor: " +
            (m.note.empty() ? std::string("not measured") : m.note) + ").",
        {{"speedup", t.speedup}, {"bound", kSpeedupBound}});
}

}  // namespace ks::engine::verdicts

namespace ks::engine {

BandwidthFloor bandwidthFloor(const ProbeEvidence& e) {
  BandwidthFloor f;
  if (e.device != "cuda") {
    f.note = "no floor on cpu";
    return f;
  }
  f.gpu = gpuMemorySpec(e.deviceName);
  if (!f.gpu) {
    f.note = "no peak bandwidth known for " + e.deviceName + ", so no floor";
    return f;
  }
  const auto l2 = static_cast<std::int64_t>(f.gpu->l2Bytes);
  const bool flushed = e.timing && e.timing->cacheFlushBytes > 0;
  f.bytes = flushed ? e.inputBytes + std::max<std::int64_t>(0, e.outputBytes - l2)
                    : std::max<std::int64_t>(0, e.inputBytes - l2);
  f.floorMs = f.bytes / f.gpu->bandwidthBytesPerS * 1e3;
  if (f.floorMs < kLaunchLatencyMs)
    f.note = "the floor is below launch latency, so no time can be below it";
  else
    f.applicable = true;
  return f;
}

}  // namespace ks::engine
