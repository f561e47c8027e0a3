// Streams of a profiled call, read from a Chrome trace bracketed by marker kernels on the current stream.
#include "core/probes/stream_evidence.h"

#include <gtest/gtest.h>

#include "core/probes/chrome_trace.h"

using namespace ks::engine;

namespace {

// A trace of one candidate call: markers on stream 7, a GEMM on stream 14 ending at `sideEnd`, and the sync
// records the newer profilers write when `sync` is set (a wait of stream 7 on stream 14 when `joined`).
std::string trace(double sideEnd, bool sync, bool joined) {
  std::string events = R"json(
    {"ph": "X", "cat": "kernel", "name": "at::cuda::spin_kernel(long)", "ts": 10, "dur": 1,
     "args": {"stream": 7, "correlation": 100}},
    {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 20, "dur": )json" +
                       std::to_string(sideEnd - 20) + R"json(, "args": {"stream": 14, "correlation": 101}},
    {"ph": "X", "cat": "kernel", "name": "relu", "ts": 22, "dur": 2,
     "args": {"stream": 7, "correlation": 102}},
    {"ph": "X", "cat": "kernel", "name": "at::cuda::spin_kernel(long)", "ts": 30, "dur": 1,
     "args": {"stream": 7, "correlation": 103}})json";
  if (sync)
    events += R"(,
    {"ph": "X", "cat": "cuda_sync", "name": "Context Sync", "ts": 40, "dur": 1, "args": {"stream": -1}})";
  if (joined)
    events += R"(,
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "ts": 25, "dur": 0,
     "args": {"stream": 7, "wait_on_stream": 14, "wait_on_cuda_event_record_corr_id": 101}})";
  return R"({"traceEvents": [)" + events + "]}";
}

const ChromeTrace kReferenceTrace = readChromeTrace(R"({"traceEvents": [
  {"ph": "X", "cat": "kernel", "name": "spin_kernel", "ts": 1, "dur": 1,
   "args": {"stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 2, "dur": 5, "args": {"stream": 7, "correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "spin_kernel", "ts": 8, "dur": 1,
   "args": {"stream": 7, "correlation": 3}}
]})");

}  // namespace

TEST(ChromeTrace, MarkersAreTheFirstAndLastSpinKernelsAndStayOutOfTheKernelList) {
  const ChromeTrace t = readChromeTrace(trace(28, false, false));
  ASSERT_TRUE(t.valid);
  ASSERT_EQ(t.kernels.size(), 4u);
  EXPECT_TRUE(t.kernels.front().marker);
  EXPECT_TRUE(t.kernels.back().marker);
  const auto kernels = kernelsFromChromeTrace(t, "candidate");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "gemm");
  EXPECT_EQ(kernels[0].stream, 14);
  EXPECT_FALSE(t.syncEventsRecorded);
}

TEST(StreamEvidence, SideKernelRunningPastTheEndMarker) {
  const StreamEvidence s = streamEvidence(readChromeTrace(trace(45, false, false)), kReferenceTrace);
  ASSERT_TRUE(s.profiled);
  EXPECT_EQ(s.currentStream, 7);
  ASSERT_EQ(s.sideStreams.size(), 1u);
  EXPECT_EQ(s.sideStreams[0].stream, 14);
  EXPECT_DOUBLE_EQ(s.sideStreams[0].endsAfterCallUs, 15);
  EXPECT_FALSE(s.sideStreams[0].joined.has_value());
  EXPECT_EQ(s.referenceSideStreams, 0);
}

TEST(StreamEvidence, WaitsAreKnownOnlyWhereSyncEventsAreRecorded) {
  EXPECT_EQ(streamEvidence(readChromeTrace(trace(28, true, false)), kReferenceTrace).sideStreams[0].joined, false);
  EXPECT_EQ(streamEvidence(readChromeTrace(trace(28, true, true)), kReferenceTrace).sideStreams[0].joined, true);
  EXPECT_LT(streamEvidence(readChromeTrace(trace(28, true, true)), kReferenceTrace).sideStreams[0].endsAfterCallUs,
            0);
}

TEST(StreamEvidence, NoMarkersNoEvidence) {
  EXPECT_EQ(streamEvidence(readChromeTrace("{}"), kReferenceTrace).note, "no readable trace");
  const StreamEvidence s = streamEvidence(readChromeTrace(R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 2, "dur": 5, "args": {"stream": 7}}]})"),
                                          kReferenceTrace);
  EXPECT_FALSE(s.profiled);
  EXPECT_EQ(s.note, "the call's marker kernels are missing from the trace");
}

// A wait whose source stream the profiler could not match to an event record (wait_on_stream -1), as torch
// 2.11's profiler wrote for a joined side stream on the H100: the join is unknown, not missing.
TEST(StreamEvidence, WaitOfTheCurrentStreamOnAnUntracedEventLeavesTheJoinUnknown) {
  std::string t = trace(28, true, false);
  t.insert(t.size() - 2, R"(,
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "ts": 25, "dur": 0,
     "args": {"stream": 7, "wait_on_stream": -1}})");
  const StreamEvidence s = streamEvidence(readChromeTrace(t), kReferenceTrace);
  ASSERT_EQ(s.sideStreams.size(), 1u);
  EXPECT_FALSE(s.sideStreams[0].joined.has_value());
  EXPECT_EQ(s.unresolvedWaits, 1);
  EXPECT_EQ(s.currentStreamWaits, 0);
}

// The wrong direction: the side stream waits for the current one, never the other way round.
TEST(StreamEvidence, OnlyTheSideStreamWaitingIsNotAJoin) {
  std::string t = trace(28, true, false);
  t.insert(t.size() - 2, R"(,
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "ts": 19, "dur": 0,
     "args": {"stream": 14, "wait_on_stream": 7}},
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "ts": 19, "dur": 0, "args": {"stream": 14}})");
  const StreamEvidence s = streamEvidence(readChromeTrace(t), kReferenceTrace);
  ASSERT_EQ(s.sideStreams.size(), 1u);
  EXPECT_EQ(s.sideStreams[0].joined, false);
  EXPECT_EQ(s.unresolvedWaits, 0);
}
