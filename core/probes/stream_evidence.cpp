#include "core/probes/stream_evidence.h"

#include <algorithm>
#include <map>

namespace ks::engine {
namespace {

struct Markers {
  const TraceKernel* begin = nullptr;
  const TraceKernel* end = nullptr;
};

Markers markersOf(const ChromeTrace& trace) {
  Markers m;
  for (const TraceKernel& k : trace.kernels) {
    if (!k.marker) continue;
    if (!m.begin || k.correlation < m.begin->correlation) m.begin = &k;
    if (!m.end || k.correlation > m.end->correlation) m.end = &k;
  }
  return m;
}

int sideStreamCount(const ChromeTrace& trace, std::int64_t current) {
  std::map<std::int64_t, bool> streams;
  for (const TraceKernel& k : trace.kernels)
    if (!k.marker && k.stream != current) streams[k.stream] = true;
  return static_cast<int>(streams.size());
}

}  // namespace

StreamEvidence streamEvidence(const ChromeTrace& candidate, const ChromeTrace& reference) {
  StreamEvidence out;
  const Markers m = markersOf(candidate);
  if (!candidate.valid || !m.begin || !m.end || m.begin->stream != m.end->stream) {
    out.note = candidate.valid ? "the call's marker kernels are missing from the trace" : "no readable trace";
    return out;
  }
  out.profiled = true;
  out.currentStream = m.begin->stream;
  out.syncEventsRecorded = candidate.syncEventsRecorded;
  const double endMarkerUs = m.end->startUs;
  std::map<std::int64_t, SideStreamEvidence> side;
  for (const TraceKernel& k : candidate.kernels) {
    if (k.marker || k.stream == out.currentStream) continue;
    auto [it, fresh] = side.try_emplace(k.stream);
    SideStreamEvidence& s = it->second;
    const double endsAfter = k.startUs + k.durationUs - endMarkerUs;
    if (fresh) {
      s.stream = k.stream;
      s.firstKernel = k.name;
      s.endsAfterCallUs = endsAfter;
    }
    s.kernels += 1;
    s.endsAfterCallUs = std::max(s.endsAfterCallUs, endsAfter);
  }
  // The profiler names the stream a wait is for from the event's record; where it could not match the
  // record (wait_on_stream -1), a wait of the current stream may be the join, so the answer is unknown.
  const bool unresolvedWait =
      std::any_of(candidate.waits.begin(), candidate.waits.end(),
                  [&](const TraceWait& w) { return w.stream == out.currentStream && w.waitOnStream < 0; });
  for (auto& [stream, s] : side) {
    if (out.syncEventsRecorded) {
      const bool waited = std::any_of(candidate.waits.begin(), candidate.waits.end(), [&](const TraceWait& w) {
        return w.stream == out.currentStream && w.waitOnStream == stream;
      });
      if (waited || !unresolvedWait) s.joined = waited;
    }
    out.sideStreams.push_back(s);
  }
  for (const TraceWait& w : candidate.waits)
    if (w.stream == out.currentStream) ++(w.waitOnStream < 0 ? out.unresolvedWaits : out.currentStreamWaits);
  const Markers refMarkers = markersOf(reference);
  if (refMarkers.begin) out.referenceSideStreams = sideStreamCount(reference, refMarkers.begin->stream);
  return out;
}

}  // namespace ks::engine
