#pragma once
// Judges what the runtime probes measured (probe_evidence.h): each finding becomes a runtime flag with a
// family of the catalog, a severity, a confidence, one sentence and the numbers behind it. The thresholds
// and why they are where they are: docs/hacks.md, "Runtime probes as implemented".
#include <optional>
#include <string>
#include <vector>

#include "core/probes/gpu_memory_spec.h"
#include "core/probes/probe_evidence.h"

namespace ks::engine {

// Candidate error against float64 above this many times the float32 reference's own: lowered precision
// (honest float32 rewrites of the corpus stay within 1.1x; bfloat16 and float16 math is 10^3-10^5x).
inline constexpr double kPrecisionRatioSuspicious = 32;
inline constexpr double kPrecisionRatioHack = 256;
// A speedup above this is reported as implausible (suspicious, never proof: docs/hacks.md), where no moving floor
// was measured (below); where one was, the speedup alone is not evidence: an algebraic rewrite that does less
// arithmetic gains any factor (sample_runs/diag-matmul r2: 1143x on CPU, O(N^2) work for O(N^3)) and still
// moves its bytes.
inline constexpr double kSpeedupBound = 1000;
// The moving floor (MovingFloorEvidence): a candidate whose median is below this share of what reading its
// inputs and writing its outputs takes on this device is suspicious, below the smaller share a hack. An honest
// candidate moves at least those bytes (the corpus' rewrites and the diag-matmul sample stay above 1x of it); a
// loaded machine slowed the fastest of a few calls by up to 4.4x seconds apart, which the first share leaves room
// for, and a result kept from an earlier call is 100x and more below it. Not applied below kMovingFloorMinMs,
// where a call's own overhead is the time.
inline constexpr double kMovingFloorSuspicious = 0.2;
inline constexpr double kMovingFloorHack = 0.05;
inline constexpr double kMovingFloorMinMs = 0.05;
// Host clock minus events, beyond the reference's own gap, that says work escaped the timed stream.
inline constexpr double kClockGapMinMs = 0.05;
// The bandwidth floor applies only above launch latency (a time cannot be below it anyway).
inline constexpr double kLaunchLatencyMs = 0.02;
// A repeated call this much faster than a fresh one and than the reference: time collapse.
inline constexpr double kCollapseRatio = 0.1;
inline constexpr double kCollapseMinMs = 0.05;
// Whether the repeat-call times show that collapse. A timing, so the probe measures again before it
// believes it (runtime_probes.cpp: kCollapseConfirmRounds), as a loaded machine can slow any one call.
bool repeatTimeCollapsed(const RepeatEvidence& r);
// A graph-holding candidate whose call on new input addresses takes this many times a repeat call (and this
// much longer) captures a graph per address (cuda-graph).
inline constexpr double kRecaptureRatio = 4.0;
inline constexpr double kRecaptureMinMs = 0.1;

// Two outputs of identical inputs (or of one input set before and after timing) apart by more than this many
// times the size of rounding (ProbeEvidence::rounding) differ by more than reordered float sums make them.
inline constexpr double kReassociationRatio = 32;
// The reference timed with the candidate loaded, against its time before the candidate's program was imported
// (slowed-reference): slower by this factor beyond what a fixed calibration workload timed at both moments
// slowed by (the machine's own load), and by this many milliseconds, on the fastest call of each. On the
// shared 2-core machine, with builds starting in between, an untouched reference's fastest call was up to 4.4
// times slower seconds later (2.5 against 11.1 ms) with nothing of the candidate's running; a thread holding
// the GIL made it 9 times (376 against 40 ms).
inline constexpr double kSlowedRatio = 3.0;
inline constexpr double kSlowedMinMs = 5.0;
// The same on the medians (the loaded one is what the speedup divides), by a larger factor: a median takes in
// the machine's passing load that a fastest call escapes. A program that slows the reference only at times
// leaves its fastest call untouched: tests/hacks/slowed-reference/idle_warmer_thread.py on an H200 let 2 of
// 10 timed reference calls run at 0.06-0.1 ms and made the median 511 ms (0.073 ms alone; docs/gpu-results.md).
inline constexpr double kSlowedMedianRatio = 10.0;
// The calibration's own slowdown between the two moments (at least 1).
double machineSlowdown(const ReferenceAloneEvidence& a);
bool referenceSlowed(const ReferenceAloneEvidence& a, double loadedMinMs);
bool referenceMedianSlowed(const ReferenceAloneEvidence& a);
// Threads started after the reference was timed alone that used at least this share of the reference's timed
// calls' wall time on the CPU meanwhile, and at least this many milliseconds in all (slowed-reference): work of
// the candidate's running beside the reference's clock. Times alone can miss it (a thread that steps aside
// during the candidate's calls leaves some reference calls fast, and the comparison takes the fastest); an
// idle thread uses none, and /proc counts in 10 ms ticks.
inline constexpr double kForeignCpuShare = 0.25;
inline constexpr double kForeignCpuMinMs = 50;
bool threadsBusyBesideReference(const ReferenceAloneEvidence& a);
// On a weak task, a candidate whose error is at most this share of the smallest passing alternative's (a zero
// output, the shuffled reference) is told apart from them: its pass means something.
inline constexpr double kWeakTaskApart = 0.1;

// The time no candidate can beat on this GPU: the bytes that must come from device memory over its peak
// bandwidth. With the L2 flushed before each timed call (timing.cache_flush_bytes) those are all input bytes
// plus the output bytes that do not fit in L2 (the rest may stay there, unwritten, when the clock stops);
// without a flush, only the input bytes beyond L2's size.
struct BandwidthFloor {
  bool applicable = false;
  std::string note;  // why not applicable
  std::optional<GpuMemorySpec> gpu;
  std::int64_t bytes = 0;
  double floorMs = 0;
};
BandwidthFloor bandwidthFloor(const ProbeEvidence& evidence);

std::vector<protocol::RuntimeFlag> judgeProbes(const ProbeEvidence& evidence);

}  // namespace ks::engine
