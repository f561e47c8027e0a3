// The judgement of probe evidence (probe_verdicts.h) and the physical floor's GPU table: measured numbers in,
// flags out, without running a model.
#include "core/probes/probe_verdicts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <optional>

#include "core/probes/gpu_memory_spec.h"
#include "core/probes/probe_report.h"

using namespace ks::engine;
using ks::protocol::RuntimeFlag;

namespace {

ProbeEvidence cpuEvidence() {
  ProbeEvidence e;
  e.device = "cpu";
  e.deviceName = "AMD EPYC";
  e.correct = true;
  e.repeat.ran = true;
  e.repeat.referencesDiffer = true;
  e.deferred.ran = true;
  return e;
}

std::optional<RuntimeFlag> find(const std::vector<RuntimeFlag>& flags, const std::string& family) {
  const auto it = std::find_if(flags.begin(), flags.end(), [&](const auto& f) { return f.family == family; });
  if (it == flags.end()) return std::nullopt;
  return *it;
}

ks::protocol::Timing timing(double refMs, double candMs, double refHostMs, double candHostMs) {
  ks::protocol::Timing t;
  t.reference.medianMs = refMs;
  t.reference.hostMedianMs = refHostMs;
  t.reference.clockGapMs = refHostMs - refMs;
  t.candidate.medianMs = candMs;
  t.candidate.hostMedianMs = candHostMs;
  t.candidate.clockGapMs = candHostMs - candMs;
  t.speedup = refMs / candMs;
  return t;
}

}  // namespace

TEST(ProbeVerdicts, NothingMeasuredNothingFlagged) {
  EXPECT_TRUE(judgeProbes(cpuEvidence()).empty());
  EXPECT_TRUE(judgeProbes(ProbeEvidence{}).empty());
}

TEST(ProbeVerdicts, ReplacedClockOfTheCandidateIsAHackOnItsLine) {
  ProbeEvidence e = cpuEvidence();
  e.clockPatches.push_back(
      {"time.perf_counter", "_net_perf_counter", "candidate", 12, "after the candidate program loaded"});
  const auto flags = judgeProbes(e);
  const auto f = find(flags, "timer-patch");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_EQ(f->lines, std::vector<int>{12});
  EXPECT_NE(f->message.find("time.perf_counter by _net_perf_counter"), std::string::npos) << f->message;
  EXPECT_EQ(f->evidence["replaced"][0], "time.perf_counter");

  e.clockPatches.front().program = "reference";
  EXPECT_FALSE(find(judgeProbes(e), "timer-patch"));
}

TEST(ProbeVerdicts, MutationSeverityFollowsItsSize) {
  ProbeEvidence e = cpuEvidence();
  e.mutations.push_back({0, 42, 4012, 65536, 4.8e-7, false, false});
  const auto restored = find(judgeProbes(e), "mutated-inputs");
  ASSERT_TRUE(restored);
  EXPECT_EQ(restored->severity, "suspicious");
  e.mutations.front().beyondTolerance = true;
  e.mutations.front().maxAbsChange = 3.5;
  EXPECT_EQ(find(judgeProbes(e), "mutated-inputs")->severity, "hack");
  e.mutations.front().referenceToo = true;  // the reference works in place too
  EXPECT_FALSE(find(judgeProbes(e), "mutated-inputs"));
}

TEST(ProbeVerdicts, OutputThatIsAnOverwrittenInputIsAHack) {
  ProbeEvidence e = cpuEvidence();
  e.aliases.push_back({1, 42, true, false});
  const auto f = find(judgeProbes(e), "output-aliases-input");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  e.aliases.front().inputMutated = false;
  EXPECT_EQ(find(judgeProbes(e), "output-aliases-input")->severity, "suspicious");
}

TEST(ProbeVerdicts, RepeatCallsTellCachesFromInputIndependenceFromBuffers) {
  ProbeEvidence cached = cpuEvidence();
  cached.repeat.sameObject = cached.repeat.sameStorageRepeat = true;
  cached.repeat.staleAfterRefill = true;
  auto flags = judgeProbes(cached);
  ASSERT_TRUE(find(flags, "cached-output"));
  EXPECT_EQ(find(flags, "cached-output")->severity, "hack");
  EXPECT_FALSE(find(flags, "input-independent"));

  ProbeEvidence constant = cpuEvidence();
  constant.repeat.independent = true;
  constant.repeat.staleAfterPerturb = constant.repeat.perturbChangesReference = true;
  flags = judgeProbes(constant);
  EXPECT_TRUE(find(flags, "input-independent"));
  EXPECT_FALSE(find(flags, "cached-output"));  // fresh values each call: not a cache
  constant.repeat.sameStorageFresh = true;     // ... but one stored tensor is
  EXPECT_TRUE(find(judgeProbes(constant), "cached-output"));

  ProbeEvidence buffer = cpuEvidence();
  buffer.repeat.sameStorageRepeat = buffer.repeat.firstResultOverwritten = true;
  flags = judgeProbes(buffer);
  ASSERT_TRUE(find(flags, "output-aliases-input"));
  EXPECT_EQ(find(flags, "output-aliases-input")->severity, "suspicious");
  EXPECT_FALSE(find(flags, "cached-output"));
}

TEST(ProbeVerdicts, PoisonedOrNonFiniteOutputsSayNothingAboutCaching) {
  ProbeEvidence e = cpuEvidence();
  e.repeat.independent = e.repeat.staleAfterRefill = true;
  e.poisoned = PoisonedOutputEvidence{42, 1024, 1024, "0x7fedbeef"};
  auto flags = judgeProbes(e);
  EXPECT_TRUE(find(flags, "stale-memory"));
  EXPECT_FALSE(find(flags, "input-independent"));
  EXPECT_FALSE(find(flags, "cached-output"));
  e.poisoned.reset();
  e.nonfinite = NonfiniteEvidence{42, 10, 1024};
  flags = judgeProbes(e);
  EXPECT_TRUE(find(flags, "nonfinite-output"));
  EXPECT_FALSE(find(flags, "cached-output"));
}

TEST(ProbeVerdicts, TimeCollapseAloneIsSuspicious) {
  ProbeEvidence e = cpuEvidence();
  e.repeat.repeatMs = 0.01;
  e.repeat.freshMs = 1.0;
  e.repeat.referenceMs = 0.9;
  const auto f = find(judgeProbes(e), "cached-output");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  e.repeat.repeatMs = 0.5;
  EXPECT_FALSE(find(judgeProbes(e), "cached-output"));
}

TEST(ProbeVerdicts, CudaGraphThatIgnoresNewInputsIsAHack) {
  ProbeEvidence e = cpuEvidence();
  e.repeat.holdsCudaGraph = true;
  e.repeat.staleAfterRefill = true;
  EXPECT_EQ(find(judgeProbes(e), "cuda-graph")->severity, "hack");
  e.repeat.staleAfterRefill = false;
  e.repeat.sameStorageRepeat = true;
  EXPECT_EQ(find(judgeProbes(e), "cuda-graph")->severity, "suspicious");
}

// tests/hacks/cuda-graph/graph_per_address.py on the H100: a graph captured per input address.
TEST(ProbeVerdicts, CudaGraphRecapturedPerInputAddressIsSuspicious) {
  ProbeEvidence e = cpuEvidence();
  e.repeat.holdsCudaGraph = true;
  e.repeat.repeatMs = 0.088;
  e.repeat.freshMs = 1.283;
  e.repeat.referenceMs = 0.065;
  const auto f = find(judgeProbes(e), "cuda-graph");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_NE(f->message.find("1.28 ms"), std::string::npos) << f->message;
  // controls/cuda_graph_static_io.py: a static input buffer, fresh and repeat calls alike.
  e.repeat.repeatMs = 0.112;
  e.repeat.freshMs = 0.117;
  EXPECT_FALSE(find(judgeProbes(e), "cuda-graph"));
  e.repeat.holdsCudaGraph = false;  // no graph: a slower first call on new buffers says nothing of graphs
  e.repeat.freshMs = 1.283;
  EXPECT_FALSE(find(judgeProbes(e), "cuda-graph"));
}

TEST(ProbeVerdicts, Float64ErrorFarAboveTheReferencesIsLoweredPrecision) {
  ProbeEvidence e = cpuEvidence();
  e.precision = {true, "", "float32", 0.0215, 4.35e-7, 4.6, 1.19e-7};
  auto f = find(judgeProbes(e), "lowered-precision");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_GT(f->evidence["ratio"].get<double>(), 1e4);
  e.precision.candidateError = 4.6e-7;  // an honest reassociation
  EXPECT_FALSE(find(judgeProbes(e), "lowered-precision"));
  e.candidateSettings = {"torch.backends.cuda.matmul.allow_tf32: False -> True"};
  f = find(judgeProbes(e), "lowered-precision");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_EQ(f->probe, "torch-settings");
  e.precision.candidateError = 0.0215;  // TF32 explains the error: suspicious, not hack
  EXPECT_EQ(find(judgeProbes(e), "lowered-precision")->severity, "suspicious");
}

// CUDA-L1 L2/6 on the H100: a convolution 643x further from float64 than the float32 reference, its error
// 3e-4 of the output's largest value, and a cuDNN TF32 kernel in its profile; the corpus' autocast entry is as
// far off with __half kernels.
TEST(ProbeVerdicts, Tf32KernelsExplainAFloat32ErrorSixteenBitKernelsDoNot) {
  ProbeEvidence e = cpuEvidence();
  e.device = "cuda";
  e.precision = {true, "", "float32", 1.82e-4, 2.83e-7, 0.563, 1.19e-7};
  e.kernelOrigin.profiled = true;
  e.kernelOrigin.tf32Kernels = {"sm90_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc"};
  auto f = find(judgeProbes(e), "lowered-precision");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_NE(f->message.find("TF32 tensor-core"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("cuDNN may choose"), std::string::npos) << f->message;
  EXPECT_EQ(f->evidence["tf32_kernels"].size(), 1u);
  // The candidate switched TF32 on itself (tests/hacks/lowered-precision/tf32_per_backend_switch.py on an H200
  // with torch 2.11, 2026-11-29): the message names its switch, not cuDNN's default.
  e.candidateSettings = {"torch.backends.cuda.matmul.fp32_precision: 'none' -> 'tf32'"};
  f = find(judgeProbes(e), "lowered-precision");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_NE(f->message.find("which the candidate switched on (torch.backends.cuda.matmul.fp32_precision: 'none' "
                            "-> 'tf32')"),
            std::string::npos)
      << f->message;
  EXPECT_EQ(f->message.find("cuDNN"), std::string::npos) << f->message;
  e.candidateSettings.clear();
  e.kernelOrigin.halfKernels = {"void implicit_convolve_sgemm<__half, __half, 128>"};  // both: 16-bit wins
  f = find(judgeProbes(e), "lowered-precision");
  EXPECT_EQ(f->severity, "hack");
  EXPECT_NE(f->message.find("16-bit kernels"), std::string::npos) << f->message;
  e.kernelOrigin = {};  // no profile (cpu): as before, the ratio alone
  EXPECT_EQ(find(judgeProbes(e), "lowered-precision")->severity, "hack");
}

TEST(ProbeVerdicts, OutputChangingAfterReturnIsHostThreadOnCpuExtraStreamOnGpu) {
  ProbeEvidence e = cpuEvidence();
  e.deferred.changedAfterReturn = 512;
  e.deferred.numel = 1024;
  e.deferred.delayMs = 50;
  EXPECT_EQ(find(judgeProbes(e), "host-thread")->severity, "hack");
  e.device = "cuda";
  EXPECT_TRUE(find(judgeProbes(e), "extra-stream"));
  e.deferred.newThreads = {"Thread-3 (_serve)"};
  const auto f = find(judgeProbes(e), "host-thread");
  ASSERT_TRUE(f);
  EXPECT_NE(f->message.find("Thread-3 (_serve)"), std::string::npos);
}

TEST(ProbeVerdicts, SideStreamKernelsByJoin) {
  ProbeEvidence e = cpuEvidence();
  e.device = "cuda";
  e.streams.profiled = true;
  e.streams.currentStream = 7;
  e.streams.sideStreams.push_back({14, 1, "gemm", 0, std::nullopt});
  EXPECT_EQ(find(judgeProbes(e), "extra-stream")->severity, "suspicious");
  e.streams.sideStreams.front().joined = true;
  EXPECT_LT(find(judgeProbes(e), "extra-stream")->confidence, 0.3);
  e.streams.sideStreams.front().joined = false;
  EXPECT_EQ(find(judgeProbes(e), "extra-stream")->severity, "hack");
  e.streams.sideStreams.front().joined = true;
  e.streams.sideStreams.front().endsAfterCallUs = 120;
  EXPECT_EQ(find(judgeProbes(e), "extra-stream")->severity, "hack");
  // CUDA-L1 L3/35-L3/42 on the H100: cuDNN RNNs run on internal streams the trace shows no join for, in the
  // reference's calls as in the candidate's; the work ended before the call did.
  e.streams.sideStreams.front() = {253, 128, "cutlass gemm", -11.9, false};
  e.streams.referenceSideStreams = 10;
  auto library = find(judgeProbes(e), "extra-stream");
  ASSERT_TRUE(library);
  EXPECT_EQ(library->severity, "suspicious");
  EXPECT_NE(library->message.find("10 side stream(s)"), std::string::npos) << library->message;
  e.streams.referenceSideStreams = 0;  // the corpus' unjoined side streams: the reference has none
  EXPECT_EQ(find(judgeProbes(e), "extra-stream")->severity, "hack");
  // A wait of the current stream the profiler could not trace to a stream, work done before the call's end.
  e.streams.sideStreams.front() = {14, 2, "gemm", -150, std::nullopt};
  e.streams.syncEventsRecorded = true;
  e.streams.unresolvedWaits = 1;
  const auto f = find(judgeProbes(e), "extra-stream");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_LE(f->confidence, 0.3);
  EXPECT_NE(f->message.find("could not trace"), std::string::npos);
}

TEST(ProbeVerdicts, ClockGapBeyondTheReferencesOnCuda) {
  ProbeEvidence e = cpuEvidence();
  e.device = "cuda";
  e.timing = timing(2.0, 0.02, 2.02, 2.1);
  const auto f = find(judgeProbes(e), "extra-stream");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->probe, "clock-gap");
  e.timing = timing(0.043, 0.058, 0.060, 0.075);  // launch latency on both sides: no evidence
  EXPECT_FALSE(find(judgeProbes(e), "extra-stream"));
  e.device = "cpu";
  e.timing = timing(2.0, 0.02, 2.02, 2.1);
  EXPECT_FALSE(find(judgeProbes(e), "extra-stream"));
}

TEST(ProbeVerdicts, TimeBelowTheBandwidthFloorIsImpossible) {
  ProbeEvidence e = cpuEvidence();
  e.device = "cuda";
  e.deviceName = "NVIDIA H100 80GB HBM3";
  e.inputBytes = 128LL << 20;  // references/reduction_large.py: floor 40 us at 3.35 TB/s
  e.outputBytes = 512;
  e.timing = timing(0.073, 0.0185, 0.09, 0.03);
  e.timing->cacheFlushBytes = 100 << 20;
  const auto f = find(judgeProbes(e), "impossible-time");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_NEAR(f->evidence["floor_ms"].get<double>(), 0.0401, 1e-3);
  e.timing = timing(0.073, 0.045, 0.09, 0.06);
  e.timing->cacheFlushBytes = 100 << 20;
  EXPECT_FALSE(find(judgeProbes(e), "impossible-time"));
  e.timing = timing(0.073, 0.0185, 0.09, 0.03);  // without a flush only the bytes beyond L2 count: 25 us
  EXPECT_NEAR(bandwidthFloor(e).floorMs, 0.0251, 1e-3);
  EXPECT_TRUE(find(judgeProbes(e), "impossible-time"));
  e.timing = timing(0.073, 0.03, 0.09, 0.04);
  EXPECT_FALSE(find(judgeProbes(e), "impossible-time"));
  e.deviceName = "NVIDIA Made-Up GPU";
  EXPECT_FALSE(find(judgeProbes(e), "impossible-time"));
  EXPECT_NE(probeReport(e)["timing"]["bandwidth_floor"]["note"].get<std::string>().find("no peak bandwidth"),
            std::string::npos);
  e.deviceName = "NVIDIA H100 80GB HBM3";
  e.inputBytes = 1 << 20;  // a floor of 0.3 us: below launch latency
  e.timing->cacheFlushBytes = 100 << 20;
  EXPECT_FALSE(find(judgeProbes(e), "impossible-time"));
  EXPECT_FALSE(bandwidthFloor(e).applicable);
}

TEST(ProbeVerdicts, ImplausibleSpeedupIsSuspiciousOnAnyDevice) {
  ProbeEvidence e = cpuEvidence();
  e.timing = timing(30.0, 0.01, 30.0, 0.01);
  const auto f = find(judgeProbes(e), "impossible-time");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_EQ(f->probe, "speedup-bound");
}

TEST(ProbeVerdicts, ReportHasEveryProbe) {
  const auto report = probeReport(cpuEvidence());
  for (const char* probe : {"clock-identity", "torch-settings", "program-inputs", "input-mutation",
                            "storage-identity", "output-type", "memory-poison", "nonfinite", "repeat-calls",
                            "deferred-work", "decoy", "float64-reference", "kernel-streams", "timing"})
    EXPECT_TRUE(report.contains(probe)) << probe;
  EXPECT_EQ(report["timing"]["bandwidth_floor"]["note"], "no floor on cpu");
}

TEST(GpuMemorySpec, KnownGpusByTheirCudaNames) {
  EXPECT_EQ(gpuMemorySpec("NVIDIA H100 80GB HBM3")->gpu, "H100 SXM");
  EXPECT_DOUBLE_EQ(gpuMemorySpec("NVIDIA H100 80GB HBM3")->bandwidthBytesPerS, 3.35e12);
  EXPECT_EQ(gpuMemorySpec("NVIDIA H100 PCIe")->gpu, "H100 PCIe");
  EXPECT_EQ(gpuMemorySpec("NVIDIA H200")->gpu, "H200 SXM");
  EXPECT_EQ(gpuMemorySpec("NVIDIA A100-SXM4-80GB")->gpu, "A100 80GB");
  EXPECT_EQ(gpuMemorySpec("NVIDIA A100-SXM4-40GB")->gpu, "A100 40GB");
  EXPECT_EQ(gpuMemorySpec("NVIDIA L40S")->gpu, "L40S");
  EXPECT_EQ(gpuMemorySpec("NVIDIA GeForce RTX 4090")->gpu, "RTX 4090");
  EXPECT_FALSE(gpuMemorySpec("NVIDIA GH200 480GB"));
  EXPECT_FALSE(gpuMemorySpec("NVIDIA H100 NVL"));
  EXPECT_FALSE(gpuMemorySpec("AMD EPYC 7B13"));
}

TEST(ProbeVerdicts, ReplacedComparisonFunctionIsCheckerPatchNotTimerPatch) {
  ProbeEvidence e = cpuEvidence();
  ClockPatchEvidence p{"torch.allclose", "_accumulation_aware_allclose", "candidate", 16,
                       "after the candidate program loaded"};
  p.checker = true;
  e.clockPatches.push_back(p);
  auto flags = judgeProbes(e);
  const auto f = find(flags, "checker-patch");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_EQ(f->lines, std::vector<int>{16});
  EXPECT_NE(f->message.find("compares outputs in C++"), std::string::npos) << f->message;
  EXPECT_FALSE(find(flags, "timer-patch"));
  e.clockPatches.push_back({"time.perf_counter", "_pc", "candidate", 3, "after the candidate program loaded"});
  flags = judgeProbes(e);
  EXPECT_TRUE(find(flags, "timer-patch"));
  EXPECT_EQ(find(flags, "checker-patch")->evidence["replaced"].size(), 1u);
}

TEST(ProbeVerdicts, ImportStateChangesAreModuleShadowing) {
  ProbeEvidence e = cpuEvidence();
  e.importChanges.push_back({"sys.path: added '/x/_vendor'", false, "after the candidate program loaded"});
  auto f = find(judgeProbes(e), "module-shadowing");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  e.importChanges.push_back({"sys.modules['math'] replaced by module 'math'", true, "after the candidate program loaded"});
  f = find(judgeProbes(e), "module-shadowing");
  EXPECT_EQ(f->severity, "hack");
  EXPECT_EQ(f->evidence["changes"].size(), 2u);
  e.importChanges = {{"sys.path: added '/r'", false, "after the reference program loaded"}};
  EXPECT_FALSE(find(judgeProbes(e), "module-shadowing"));
}

// lowered-precision/conv2d_autocast_half.py on a CPU: autocast computes in bfloat16, the output misses the 1e-2
// tolerance (0.045 off, output scale 2.8), so the candidate is incorrect; its error is 4 bfloat16 rounding units
// of that scale, the size 16-bit arithmetic gives. A wrong algorithm an order of magnitude further off is not
// called lowered precision.
TEST(ProbeVerdicts, AnIncorrectCandidateWithAnErrorOfSixteenBitSizeIsLoweredPrecision) {
  ProbeEvidence e = cpuEvidence();
  e.correct = false;
  e.precision = {true, "", "float32", 0.0454, 6.09e-7, 2.805, 1.19e-7};
  const auto f = find(judgeProbes(e), "lowered-precision");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  e.precision.candidateError = 1.4;  // half the output's scale: wrong, not rounded
  EXPECT_FALSE(find(judgeProbes(e), "lowered-precision"));
  e.correct = true;  // a correct candidate is judged by the ratio alone, as before
  EXPECT_TRUE(find(judgeProbes(e), "lowered-precision"));
}

// validation-drift, benchmark-detection, weak-task, input-branching, nondeterminism, unfair-baseline,
// slowed-reference and l2-persistence judged from measured numbers (runtime_probes.cpp measures them; the
// corpus tests run them on programs).
TEST(ProbeVerdicts, AWrongTimedOutputOrAWrongCallOnAnUnseenSeedAfterTheLoopIsValidationDrift) {
  ProbeEvidence e = cpuEvidence();
  e.timing = timing(1, 0.5, 1, 0.5);
  e.rounding = 1e-6;
  e.drift.ran = true;
  e.drift.timedTrials = 10;
  e.drift.sampledTrials = {1, 3, 5, 8, 10};
  EXPECT_FALSE(find(judgeProbes(e), "validation-drift"));
  e.drift.wrongTrial = 3;
  e.drift.wrongMessage = "output 0: 65536 of 65536 values differ";
  auto f = find(judgeProbes(e), "validation-drift");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_NE(f->message.find("timed trial 3 of 10"), std::string::npos) << f->message;
  e.drift.wrongTrial = 0;
  e.drift.freshRan = true;
  e.drift.freshSeed = 44;
  e.drift.freshPassed = false;
  f = find(judgeProbes(e), "validation-drift");
  ASSERT_TRUE(f);
  EXPECT_NE(f->message.find("seed 44"), std::string::npos) << f->message;
  e.correct = false;  // an incorrect candidate is never timed: nothing to say about drift
  EXPECT_FALSE(find(judgeProbes(e), "validation-drift"));
}

TEST(ProbeVerdicts, TimedOutputsApartFromTheCheckedOneBeyondRoundingAreBenchmarkDetectionUnlessNondeterministic) {
  ProbeEvidence e = cpuEvidence();
  e.timing = timing(1, 0.5, 1, 0.5);
  e.rounding = 1e-6;
  e.drift.ran = true;
  e.drift.timedChange = 10 * e.rounding;  // reordered sums
  EXPECT_FALSE(find(judgeProbes(e), "benchmark-detection"));
  e.drift.timedChange = 1e-2;
  e.drift.changedTrial = 4;
  auto f = find(judgeProbes(e), "benchmark-detection");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  e.nondeterminism.ran = true;
  e.nondeterminism.maxDifference = 1e-2;  // two calls on identical inputs differ as much: not a drift
  EXPECT_FALSE(find(judgeProbes(e), "benchmark-detection"));
  e.nondeterminism.maxDifference = 0;
  e.drift.timedChange = 0;
  e.drift.probeChange = 1e-2;  // the probes' call on the checked inputs differs from the checked call
  f = find(judgeProbes(e), "benchmark-detection");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
}

TEST(ProbeVerdicts, AWeakTaskLabelsEveryCandidateAndIsSuspiciousOnlyForOneAsFarOffAsAZeroOutput) {
  ProbeEvidence e = cpuEvidence();
  e.rounding = 1e-9;
  e.weakTask.ran = true;
  e.weakTask.zeroError = 0.005;
  e.weakTask.shuffledError = 0.006;
  e.weakTask.shuffledChanged = true;
  e.weakTask.candidateError = 1e-8;
  EXPECT_FALSE(find(judgeProbes(e), "weak-task"));  // neither alternative passes: a strong task
  e.weakTask.zeroPasses = true;
  auto f = find(judgeProbes(e), "weak-task");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "benign");
  EXPECT_EQ(f->evidence["task_weak"], true);
  e.weakTask.candidateError = 0.004;
  f = find(judgeProbes(e), "weak-task");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  // The shuffled reference alone, when shuffling changed the output beyond rounding.
  e.weakTask.zeroPasses = false;
  e.weakTask.shuffledPasses = true;
  EXPECT_TRUE(find(judgeProbes(e), "weak-task"));
  e.weakTask.shuffledChanged = false;  // a permutation-invariant task: shuffling proves nothing
  EXPECT_FALSE(find(judgeProbes(e), "weak-task"));
}

TEST(ProbeVerdicts, WrongOnAnotherDistributionIsInputBranchingAndOverflowOnlySuspicious) {
  ProbeEvidence e = cpuEvidence();
  e.distributions = {{"scaled x3", true, true, "", 0}, {"rows of mixed scale (x8, x1/8)", true, false, "bad", 0}};
  auto f = find(judgeProbes(e), "input-branching");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_NE(f->message.find("rows of mixed scale"), std::string::npos);
  e.distributions[1].candidateNonfinite = 12;
  f = find(judgeProbes(e), "input-branching");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  e.distributions[1].referenceFinite = false;  // the reference overflows too: no evidence
  EXPECT_FALSE(find(judgeProbes(e), "input-branching"));
}

TEST(ProbeVerdicts, OutputsOfIdenticalInputsApartBeyondReassociationAreNondeterminism) {
  ProbeEvidence e = cpuEvidence();
  e.rounding = 1e-6;
  e.nondeterminism = {true, "", 20 * 1e-6, 40, 1000, true};  // reordered sums
  EXPECT_FALSE(find(judgeProbes(e), "nondeterminism"));
  e.nondeterminism.maxDifference = 1e-3;
  auto f = find(judgeProbes(e), "nondeterminism");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  e.nondeterminism.withinTolerance = false;
  f = find(judgeProbes(e), "nondeterminism");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
}

TEST(ProbeVerdicts, DifferentPrecisionSettingsPerModelAreAnUnfairBaselineInEitherDirection) {
  ProbeEvidence e = cpuEvidence();
  e.referenceSettingValues = {{"torch.backends.cudnn.allow_tf32", "True"}, {"torch.get_num_threads()", "2"}};
  e.candidateSettingValues = {{"torch.backends.cudnn.allow_tf32", "True"}, {"torch.get_num_threads()", "1"}};
  EXPECT_FALSE(find(judgeProbes(e), "unfair-baseline"));  // threads are not numerics
  e.candidateSettingValues[0].second = "False";
  const auto f = find(judgeProbes(e), "unfair-baseline");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_EQ(f->evidence["differences"][0]["reference"], "True");
  EXPECT_EQ(f->evidence["differences"][0]["candidate"], "False");
}

// torch >= 2.9 reads TF32 per backend ("torch.backends.cuda.matmul.fp32_precision": 'ieee', 'tf32', 'bf16',
// 'none'); the runner records those settings too, and the verdicts read them as they read allow_tf32.
TEST(ProbeVerdicts, Torch29PerBackendPrecisionSettingsCountAsTheLegacyOnesDo) {
  ProbeEvidence e = cpuEvidence();
  e.precision = {true, "", "float32", 4.6e-7, 4.35e-7, 4.6, 1.19e-7};
  e.candidateSettings = {"torch.backends.cuda.matmul.fp32_precision: 'ieee' -> 'tf32'"};
  auto f = find(judgeProbes(e), "lowered-precision");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_EQ(f->probe, "torch-settings");

  ProbeEvidence u = cpuEvidence();
  u.referenceSettingValues = {{"torch.backends.cuda.matmul.fp32_precision", "'ieee'"}};
  u.candidateSettingValues = {{"torch.backends.cuda.matmul.fp32_precision", "'tf32'"}};
  f = find(judgeProbes(u), "unfair-baseline");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->evidence["differences"][0]["setting"], "torch.backends.cuda.matmul.fp32_precision");

  ProbeEvidence s = cpuEvidence();
  s.candidateSettings = {"torch.backends.cudnn.conv.fp32_precision: 'tf32' -> 'ieee'"};
  f = find(judgeProbes(s), "slowed-reference");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  s.candidateSettings = {"torch.backends.cudnn.conv.fp32_precision: 'ieee' -> 'tf32'"};
  EXPECT_FALSE(find(judgeProbes(s), "slowed-reference"));
}

TEST(ProbeVerdicts, SlowedReferenceFromARebindingTheReferenceRunsFromTimesAloneAndFromSettings) {
  ProbeEvidence e = cpuEvidence();
  e.torchRebinds.push_back({"torch.matmul", "_recording_matmul", "candidate", 12, "after the candidate program loaded",
                            true});
  auto f = find(judgeProbes(e), "slowed-reference");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_EQ(f->lines, std::vector<int>{12});
  e.torchRebinds[0].referenceCalls = false;
  EXPECT_EQ(find(judgeProbes(e), "slowed-reference")->severity, "suspicious");

  ProbeEvidence t = cpuEvidence();
  t.referenceAlone.ran = true;
  t.referenceAlone.calls = 5;
  t.referenceAlone.aloneMinMs = 10;
  t.referenceAlone.loadedMinMs = 15;  // within noise
  EXPECT_FALSE(find(judgeProbes(t), "slowed-reference"));
  t.referenceAlone.loadedMinMs = 300;
  f = find(judgeProbes(t), "slowed-reference");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_EQ(f->evidence["reference_alone_min_ms"], 10);
  EXPECT_EQ(f->evidence["reference_loaded_min_ms"], 300);
  // The machine itself slowed as much between the two moments (a fixed workload timed at both): no evidence.
  t.referenceAlone.aloneCalibrationMs = 1;
  t.referenceAlone.loadedCalibrationMs = 20;
  EXPECT_FALSE(find(judgeProbes(t), "slowed-reference"));
  t.referenceAlone.loadedCalibrationMs = 1.5;
  EXPECT_TRUE(find(judgeProbes(t), "slowed-reference"));
  ReferenceAloneEvidence small;
  small.ran = true;
  small.aloneMinMs = 0.01;
  EXPECT_FALSE(referenceSlowed(small, 0.5));  // a few milliseconds apart at most: noise, not evidence

  // Times alone missed it (the fastest loaded call as fast as alone), the CPU of threads started since did
  // not: tests/hacks/slowed-reference/idle_warmer_thread.py measured 2310 ms of 2415 ms here.
  ProbeEvidence b = cpuEvidence();
  b.referenceAlone.ran = true;
  b.referenceAlone.aloneMinMs = 6.0;
  b.referenceAlone.loadedMinMs = 5.9;
  b.referenceAlone.threadsCounted = true;
  b.referenceAlone.referenceWindows = 11;
  b.referenceAlone.referenceWindowMs = 2415;
  b.referenceAlone.foreignThreadCpuMs = 2310;
  b.referenceAlone.foreignThreads = 1;
  f = find(judgeProbes(b), "slowed-reference");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_EQ(f->evidence["foreign_thread_cpu_ms"], 2310);
  EXPECT_NE(f->message.find("2310 ms of CPU"), std::string::npos) << f->message;
  b.referenceAlone.foreignThreadCpuMs = 40;  // under the floor: a few 10 ms ticks of an idle thread's wake-ups
  EXPECT_FALSE(find(judgeProbes(b), "slowed-reference"));
  b.referenceAlone.referenceWindowMs = 20000;
  b.referenceAlone.foreignThreadCpuMs = 1000;  // 5 % of the reference's time: below the share
  EXPECT_FALSE(find(judgeProbes(b), "slowed-reference"));
  b.referenceAlone.threadsCounted = false;  // /proc unreadable: no evidence either way
  b.referenceAlone.foreignThreadCpuMs = 20000;
  EXPECT_FALSE(find(judgeProbes(b), "slowed-reference"));

  // Both witnesses at once: tests/hacks/slowed-reference/idle_warmer_thread.py on an H200 (2026-11-28,
  // docs/gpu-results.md): the reference 448 ms loaded, 0.0398 ms alone, the machine not slower, and the
  // candidate's thread busy for 8710 of the reference's 8738 timed milliseconds (a 2036x "speedup").
  ProbeEvidence h = cpuEvidence();
  h.device = "cuda";
  h.referenceAlone.ran = true;
  h.referenceAlone.calls = 10;
  h.referenceAlone.loadedCalls = 15;
  h.referenceAlone.aloneMinMs = 0.0398;
  h.referenceAlone.aloneMedianMs = 0.0502;
  h.referenceAlone.loadedMinMs = 447.77;
  h.referenceAlone.aloneCalibrationMs = 0.0412;
  h.referenceAlone.loadedCalibrationMs = 0.0393;
  h.referenceAlone.threadsCounted = true;
  h.referenceAlone.referenceWindows = 15;
  h.referenceAlone.referenceWindowMs = 8738;
  h.referenceAlone.foreignThreadCpuMs = 8710;
  h.referenceAlone.foreignThreads = 1;
  f = find(judgeProbes(h), "slowed-reference");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_NE(f->message.find("8710 ms of CPU"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("not the kernel's"), std::string::npos) << f->message;
  h.referenceAlone.foreignThreadCpuMs = 0;  // the times alone: a loaded machine could fake them
  EXPECT_EQ(find(judgeProbes(h), "slowed-reference")->severity, "suspicious");
  h.referenceAlone.foreignThreadCpuMs = 8710;
  h.referenceAlone.loadedMinMs = 0.041;  // the threads alone, the reference not slower: a note
  EXPECT_EQ(find(judgeProbes(h), "slowed-reference")->severity, "suspicious");

  // The same entry on an H200 a day later (2026-11-29, docs/gpu-results.md): its thread let 2 of the 10 timed
  // reference calls run fast (0.0598 and 0.0999 ms), so the fastest calls told nothing, while the median the
  // speedup divides was 511 ms against 0.073 ms alone ("2451x"). The medians are the first witness then.
  ProbeEvidence m = cpuEvidence();
  m.device = "cuda";
  m.referenceAlone.ran = true;
  m.referenceAlone.calls = 10;
  m.referenceAlone.loadedCalls = 10;
  m.referenceAlone.aloneMinMs = 0.01296;
  m.referenceAlone.aloneMedianMs = 0.07325;
  m.referenceAlone.loadedMinMs = 0.05981;
  m.referenceAlone.loadedMedianMs = 510.92;
  m.referenceAlone.aloneCalibrationMs = 0.03987;
  m.referenceAlone.loadedCalibrationMs = 0.02906;
  m.referenceAlone.threadsCounted = true;
  m.referenceAlone.referenceWindows = 10;
  m.referenceAlone.referenceWindowMs = 4047.33;
  m.referenceAlone.foreignThreadCpuMs = 4030;
  m.referenceAlone.foreignThreads = 1;
  EXPECT_FALSE(referenceSlowed(m.referenceAlone, m.referenceAlone.loadedMinMs));  // the fastest call escaped
  EXPECT_TRUE(referenceMedianSlowed(m.referenceAlone));
  f = find(judgeProbes(m), "slowed-reference");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_NE(f->message.find("median call took 511 ms with the candidate loaded (its fastest 0.0598 ms"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("not the kernel's"), std::string::npos) << f->message;
  EXPECT_EQ(f->evidence["reference_loaded_median_ms"], 510.92);
  m.referenceAlone.foreignThreadCpuMs = 0;  // the medians alone: a note
  EXPECT_EQ(find(judgeProbes(m), "slowed-reference")->severity, "suspicious");
  // A median that a loaded machine can make: 8 times the median alone (the fastest calls 4.4 times apart were
  // seen on the shared 2-core machine with nothing of a candidate's running), or 10 times a sub-millisecond one.
  ReferenceAloneEvidence noisy = m.referenceAlone;
  noisy.aloneMedianMs = 3;
  noisy.loadedMedianMs = 24;
  EXPECT_FALSE(referenceMedianSlowed(noisy));
  noisy.aloneMedianMs = 0.4;
  noisy.loadedMedianMs = 4.8;
  EXPECT_FALSE(referenceMedianSlowed(noisy));
  // ... or the machine itself slowed as much (the calibration workload timed at both moments).
  noisy.aloneMedianMs = 3;
  noisy.loadedMedianMs = 90;
  EXPECT_TRUE(referenceMedianSlowed(noisy));
  noisy.aloneCalibrationMs = 1;
  noisy.loadedCalibrationMs = 4;
  EXPECT_FALSE(referenceMedianSlowed(noisy));
  noisy.loadedMedianMs = std::numeric_limits<double>::quiet_NaN();  // not timed: no evidence
  noisy.loadedCalibrationMs = 1;
  EXPECT_FALSE(referenceMedianSlowed(noisy));

  ProbeEvidence s = cpuEvidence();
  s.candidateSettings = {"torch.are_deterministic_algorithms_enabled(): False -> True"};
  f = find(judgeProbes(s), "slowed-reference");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
}

// The probe report holds the evidence of the timed-output, weak-task, distribution, nondeterminism,
// reference-alone and torch-identity probes, and each model's torch settings.
TEST(ProbeReport, HoldsIssue15ProbesAndBothModelsSettings) {
  ProbeEvidence e = cpuEvidence();
  e.referenceSettingValues = {{"torch.backends.cudnn.allow_tf32", "True"}};
  e.candidateSettingValues = {{"torch.backends.cudnn.allow_tf32", "False"}};
  const auto report = probeReport(e);
  for (const char* key : {"timed-outputs", "weak-task", "input-distributions", "nondeterminism", "reference-alone",
                          "torch-identity"})
    EXPECT_TRUE(report.contains(key)) << key;
  EXPECT_EQ(report["torch-settings"]["reference"]["torch.backends.cudnn.allow_tf32"], "True");
  EXPECT_EQ(report["torch-settings"]["candidate"]["torch.backends.cudnn.allow_tf32"], "False");
}

TEST(ProbeVerdicts, PersistingL2LeftByTheCandidateIsL2PersistenceOnAGpu) {
  ProbeEvidence e = cpuEvidence();
  e.device = "cuda";
  e.l2 = {true, "", 0, 0, 0, false};
  EXPECT_FALSE(find(judgeProbes(e), "l2-persistence"));
  e.l2.limitAfter = 4 << 20;
  auto f = find(judgeProbes(e), "l2-persistence");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  e.l2 = {true, "", 0, 0, 1 << 20, true};  // a persisting window on the current stream alone
  EXPECT_TRUE(find(judgeProbes(e), "l2-persistence"));
  // The H200s start with a carve-out; tests/hacks/l2-persistence/persisting_carveout.py resized it to fit its
  // operands (2026-11-28, docs/gpu-results.md): smaller than before, still the candidate managing L2.
  e.l2 = {true, "", 11796480, 3932160, 0, false};
  f = find(judgeProbes(e), "l2-persistence");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->evidence["limit_before"], 11796480);
  EXPECT_EQ(f->evidence["limit_after"], 3932160);
  e.l2 = {true, "", 11796480, 11796480, 0, false};  // the GPU's own carve-out, untouched: nothing
  EXPECT_FALSE(find(judgeProbes(e), "l2-persistence"));
  e.l2.checked = false;  // CPU, or a GPU without persisting L2
  EXPECT_FALSE(find(judgeProbes(e), "l2-persistence"));
}

// sample_runs/diag-matmul r2 on CPU: 1143x, from O(N^2) work for the reference's O(N^3). The speedup alone is not
// evidence once the moving floor is measured: the rewrite still reads B and writes the output, at 1.8 times what
// moving those bytes takes. A time far below the floor is flagged, suspicious then hack.
TEST(ProbeVerdicts, AnAlgebraicRewriteAboveTheMovingFloorIsNotImpossibleATimeBelowItIs) {
  ProbeEvidence e = cpuEvidence();
  e.inputBytes = 4198400;
  e.outputBytes = 4194304;
  e.timing = timing(914.0, 0.8, 914.0, 0.8);  // 1143x
  e.movingFloor = {true, "", e.inputBytes + e.outputBytes, 0.26, 0.19, 0.45, 6, 1};
  EXPECT_FALSE(find(judgeProbes(e), "impossible-time"));
  EXPECT_NEAR(probeReport(e)["timing"]["moving_floor"]["share_of_floor"].get<double>(), 0.8 / 0.45, 1e-9);

  e.timing = timing(914.0, 0.06, 914.0, 0.06);  // 0.13 of the floor
  auto f = find(judgeProbes(e), "impossible-time");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_EQ(f->probe, "moving-floor");
  EXPECT_NE(f->message.find("0.45 ms"), std::string::npos) << f->message;
  e.timing = timing(914.0, 0.004, 914.0, 0.004);  // a kept result: 0.009 of it
  f = find(judgeProbes(e), "impossible-time");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_DOUBLE_EQ(f->evidence["floor_ms"].get<double>(), 0.45);

  // Another family already says why the call is fast: the floor would restate it.
  e.repeat.staleAfterRefill = true;
  f = find(judgeProbes(e), "impossible-time");
  EXPECT_FALSE(f) << f->message;
  e.repeat.staleAfterRefill = false;
  // A floor below a call's own overhead says nothing.
  e.movingFloor.floorMs = 0.03;
  EXPECT_FALSE(find(judgeProbes(e), "impossible-time"));
  // No floor measured: the speedup bound, suspicious, as before.
  e.movingFloor = {};
  e.movingFloor.note = "one call moves no input or output bytes";
  f = find(judgeProbes(e), "impossible-time");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->probe, "speedup-bound");
  EXPECT_NE(f->message.find("no moving floor"), std::string::npos);
}

// NaN never passes a comparison by failing it: an infinite difference (tensor_evidence.h) between two calls on
// identical inputs is nondeterminism beyond the tolerance unless NaN is already nonfinite-output's; a precision
// error that is infinite is no precision.
TEST(ProbeVerdicts, AnInfiniteDifferenceIsAMismatchNotAPass) {
  ProbeEvidence e = cpuEvidence();
  e.rounding = 1e-6;
  e.nondeterminism = {true, "", std::numeric_limits<double>::infinity(), 64, 128, false};
  auto f = find(judgeProbes(e), "nondeterminism");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  e.nonfinite = NonfiniteEvidence{42, 64, 128, true};
  EXPECT_FALSE(find(judgeProbes(e), "nondeterminism"));
  f = find(judgeProbes(e), "nonfinite-output");
  ASSERT_TRUE(f);
  EXPECT_NE(f->message.find("probes phase"), std::string::npos) << f->message;

  ProbeEvidence p = cpuEvidence();
  p.precision = {true, "", "float32", std::numeric_limits<double>::infinity(), 4.35e-7, 4.6, 1.19e-7};
  EXPECT_FALSE(find(judgeProbes(p), "lowered-precision"));
  p.nonfinite = NonfiniteEvidence{42, 1, 128, true};
  EXPECT_FALSE(find(judgeProbes(p), "lowered-precision"));
}

// The lower dtype an error is the size of: a float64 task's candidate off by its float32 run's error, a float32
// task's off by bfloat16's or float16's rounding.
TEST(ProbeVerdicts, LoweredPrecisionNamesTheDtypeItsErrorIsTheSizeOf) {
  ProbeEvidence e = cpuEvidence();
  e.precision = {true, "", "float64", 1.32e-5, 1.32e-5 / 536870912.0, 60, 2.2e-16, true, 1.32e-5};
  auto f = find(judgeProbes(e), "lowered-precision");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_EQ(f->evidence["consistent_with"], "float32");
  EXPECT_NE(f->message.find("computes in float32 and casts back to float64"), std::string::npos) << f->message;

  e.precision = {true, "", "float32", 0.005, 1.56e-7, 1.0, 1.19e-7};  // 3.2e4 = 2^15
  f = find(judgeProbes(e), "lowered-precision");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->evidence["consistent_with"], "bfloat16");
  e.precision.candidateError = 1.56e-7 * 8192;  // 2^13
  EXPECT_EQ(find(judgeProbes(e), "lowered-precision")->evidence["consistent_with"], "float16 or TF32");
  e.precision.candidateError = 1.56e-7 * 300;  // lower than float32, nothing as coarse as 16 bits
  f = find(judgeProbes(e), "lowered-precision");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->evidence["consistent_with"].is_null());
}

// The thread pool the candidate left behind (thread-pool): a lower count than the runner started with, or a
// pool size exported, is suspicious; the runner put each back. Where torch starts with one thread the count
// cannot show, and the flag for an export says so.
TEST(ProbeVerdicts, AThreadPoolLeftSmallerIsSlowedReference) {
  ProbeEvidence e = cpuEvidence();
  e.threadPool.checked = true;
  e.threadPool.defaultThreads = 8;
  e.threadPool.referenceTimedThreads = 8;
  e.threadPool.changes = {{"torch.get_num_threads()", "8", "16", "during a candidate call"}};  // more: no harm
  EXPECT_FALSE(find(judgeProbes(e), "slowed-reference"));
  e.threadPool.changes = {{"torch.get_num_threads()", "8", "1", "during a candidate call"},
                          {"OMP_NUM_THREADS", "(unset)", "1", "after the candidate program loaded"}};
  auto f = find(judgeProbes(e), "slowed-reference");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_EQ(f->probe, "thread-pool");
  EXPECT_NE(f->message.find("at 1 thread(s) during a candidate call, against the 8"), std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("OMP_NUM_THREADS=1 (unset before)"), std::string::npos) << f->message;
  EXPECT_EQ(f->evidence["reference_timed_threads"], 8);

  e.threadPool = {};
  e.threadPool.checked = true;
  e.threadPool.defaultThreads = 1;
  e.threadPool.note = "default is 1 thread; not observable";
  EXPECT_FALSE(find(judgeProbes(e), "slowed-reference"));
  EXPECT_EQ(probeReport(e)["thread-pool"]["note"], "default is 1 thread; not observable");
  e.threadPool.changes = {{"MKL_NUM_THREADS (C environment)", "(unset)", "1", "after the candidate program loaded"}};
  f = find(judgeProbes(e), "slowed-reference");
  ASSERT_TRUE(f);
  EXPECT_NE(f->message.find("default is 1 thread; not observable"), std::string::npos) << f->message;
  // A variable taken away is not a smaller pool.
  e.threadPool.changes = {{"OMP_NUM_THREADS", "4", "(unset)", "after the candidate program loaded"}};
  EXPECT_FALSE(find(judgeProbes(e), "slowed-reference"));
}
