#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/protocol/json_codec.h"

using namespace ks::protocol;

namespace {

Environment sampleEnvironment() {
  Environment e;
  e.runner = "kscope-runner 0.1.0";
  e.device = "cuda";
  e.deviceName = "NVIDIA H100 80GB HBM3";
  e.driver = "580.65.06";
  e.cuda = "13.0";
  e.torch = "2.11.0";
  e.python = "3.12.3";
  e.pythonLink = "static";
  e.cpu = "AMD EPYC";
  e.hostname = "gpu1";
  e.cpuThreads = 16;
  e.clocks = {1980, 2619, 1980, 2619};
  return e;
}

EvaluateResult sampleResult() {
  EvaluateResult r;
  r.codeHash = "sha256:abc";
  r.device = "cuda";
  r.environment = sampleEnvironment();
  ExtensionBuild ok{"diag",      "candidate",
                    true,        41.5,
                    false,       {"-O3", "--use_fast_math"},
                    "/c/diag-1", "",
                    {},          {{"diag_mm_kernel(float const*, float*, int)", "sm_90", 32, 0, 0, 0, 0}}};
  ExtensionBuild bad{"k2",
                     "candidate",
                     false,
                     3.0,
                     false,
                     {"-O3"},
                     "/c/k2",
                     "error: x",
                     {{"cuda.cu", 12, 5, "error", "identifier \"x\" is undefined", 48},
                      {"", 0, 0, "error", "ninja failed", std::nullopt}},
                     {}};
  bad.cause = "source-error";
  bad.causeEvidence = "cuda.cu(12): error: identifier \"x\" is undefined";
  r.build = {44.5, false, {"-O3", "--use_fast_math"}, {ok, bad}};
  r.correctness.passed = true;
  r.correctness.seeds = {{42, true, 1.5e-6, 3.25e-6, 1e-2, 1e-2, ""}, {43, true, 0, 0, 1e-2, 1e-2, ""}};
  r.correctness.inputsMutated = true;
  r.correctness.mutations = {{"candidate", 1, 43}};
  r.correctness.outputs = {{"float32", {4096, 4096}}, {"int64", {}}};
  r.correctness.poison = {true, 1 << 20, 3, 512, "512 B on other streams"};
  Timing t;
  t.clock = "cuda-events";
  t.trials = 50;
  t.warmup = 5;
  t.orderSeed = 42;
  t.reference = {2.1, 2.0, 0.02, 0.01, 2.12, 2.05, 0.02};
  t.candidate = {0.16, 0.15, 0.003, 0.02, 0.17, 0.16, 0.01};
  t.candidate.maxMs = 0.9;
  t.candidate.trialsMs = {0.16, 0.9, 0.15};
  t.reference.kernelMs = 2.0;
  t.candidate.kernelMs = 0.04;
  t.speedup = 13.125;
  t.speedupCi95 = Timing::Interval{12.5, 13.75};
  t.hostSpeedup = 12.5;
  t.cpuPin = CpuPinScope::Thread;
  t.pinnedCpu = 5;
  r.timing = t;
  r.kernels = {{"candidate", "diag_mm_kernel", 7, 1, 150.25}, {"reference", "gemm", 7, 2, 2000}};
  r.torchSettingsChanged = {"torch.backends.cuda.matmul.allow_tf32: False -> True"};
  RuntimeFlag flag;
  flag.family = "cached-output";
  flag.severity = "hack";
  flag.confidence = 0.9;
  flag.probe = "repeat-calls";
  flag.message = "The output did not change when the inputs were overwritten in place.";
  flag.lines = {14};
  flag.evidence = {{"stale_after_refill", true}, {"repeat_ms", 0.01}};
  r.runtimeFlags = {flag};
  r.probes = {{"repeat-calls", {{"ran", true}, {"same_storage", true}}}};
  r.gpuShare = GpuShareWaits{1.25, 0.5};
  return r;
}

template <class T>
T roundTrip(const Event& e) {
  const std::string line = encodeEvent(e);
  EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  Decoded<Event> d = decodeEvent(line);
  EXPECT_TRUE(d.value) << d.error << "\n" << line;
  EXPECT_TRUE(std::holds_alternative<T>(*d.value)) << line;
  return std::get<T>(*d.value);
}

}  // namespace

TEST(EventCodec, ReadyPhaseProgressRoundTrip) {
  const ReadyEvent ready{1, "kscope-runner 0.1.0", 1234};
  EXPECT_EQ(roundTrip<ReadyEvent>(ready), ready);
  const PhaseEvent phase{"7", Phase::Correctness, 120.5};
  EXPECT_EQ(roundTrip<PhaseEvent>(phase), phase);
  const PhaseEvent probes{"7", Phase::Probes, 70};
  EXPECT_EQ(roundTrip<PhaseEvent>(probes), probes);
  const ProgressEvent progress{"7", Phase::Timing, 10, 100};
  EXPECT_EQ(roundTrip<ProgressEvent>(progress), progress);
  const ProgressEvent seedMethod{"7", Phase::SeedMethod, 3, 14};
  EXPECT_EQ(roundTrip<ProgressEvent>(seedMethod), seedMethod);
  const BuildEvent compiled{"7", "candidate", "fast_gelu", true, false, 41.5, ""};
  EXPECT_EQ(roundTrip<BuildEvent>(compiled), compiled);
  const BuildEvent failed{"7", "candidate", "k", false, true, 0.2, "bound-kernel"};
  EXPECT_EQ(roundTrip<BuildEvent>(failed), failed);
}

TEST(EventCodec, ReadyLineMatchesTheDocumentedShape) {
  EXPECT_EQ(encodeEvent(ReadyEvent{1, "kscope-runner 0.1.0", 1234}),
            R"({"event":"ready","protocol":1,"runner":"kscope-runner 0.1.0","pid":1234})");
}

TEST(EventCodec, EvaluateResultRoundTripsThroughTheResultEvent) {
  const EvaluateResult r = sampleResult();
  const ResultEvent event{"7", true, toJson(r)};
  const ResultEvent back = roundTrip<ResultEvent>(event);
  EXPECT_EQ(back, event);
  Decoded<EvaluateResult> d = decodeEvaluateResult(back.result);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
}

TEST(EventCodec, CudaL1EvalRoundTripsAndOlderResultsHaveNone) {
  EvaluateResult r = sampleResult();
  CudaL1Eval e;
  e.check = {10, 10, true, 0.01, 0.01, "", 0, 0, 0.0004, 0.0001, 0.03};
  e.clock = "cuda-events";
  e.globalTrials = 7;
  e.perfTrials = 10;
  e.warmup = 3;
  e.scores = {2.1, 2.3};
  e.referenceMs = {1.05, 1.15};
  e.candidateMs = {0.5, 0.5};
  e.speedup = 2.2;
  e.spread = 0.04;
  e.flushedScores = {2.0, 2.1};
  e.flushedSpeedup = 2.05;
  r.cudaL1 = e;
  Decoded<EvaluateResult> d = decodeEvaluateResult(roundTrip<ResultEvent>(ResultEvent{"7", true, toJson(r)}).result);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
  // A failed check: its words, trial and seed; no timing fields.
  CudaL1Eval failedCheck;
  failedCheck.check = {10, 2, false, 0.01, 0.01, "Value mismatch to the original model", 3, 3735928559, 0.5, 0.2, 4.5};
  failedCheck.note = "not timed: CUDA-L1's check failed (Value mismatch to the original model)";
  r.cudaL1 = failedCheck;
  const Json j = toJson(r);
  EXPECT_FALSE(j["cuda_l1_eval"].contains("speedup"));
  d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
  r.cudaL1.reset();
  d = decodeEvaluateResult(toJson(r));
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_FALSE(d.value->cudaL1);
}

TEST(EventCodec, GemmRunSaysWhetherTheCandidateRanPaddedAndOlderResultsHaveNone) {
  EvaluateResult r = sampleResult();
  r.gemm = GemmRun{64, 1024, 96, 128, 1024, 128};
  const Json j = toJson(r);
  EXPECT_EQ(j["gemm"]["padded"], true);
  EXPECT_EQ(j["gemm"]["padded_m"], 128);
  EXPECT_EQ(j["gemm"]["padded_k"], 128);
  Decoded<EvaluateResult> d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
  EXPECT_TRUE(d.value->gemm->padded());

  r.gemm = GemmRun{1024, 1024, 1024, 1024, 1024, 1024};
  EXPECT_EQ(toJson(r)["gemm"]["padded"], false);
  EXPECT_FALSE(decodeEvaluateResult(toJson(sampleResult())).value->gemm);
}

TEST(EventCodec, FailedBuildsCarryTheirCauseAndOlderResultsDecodeWithout) {
  const EvaluateResult r = sampleResult();
  const Json j = toJson(r);
  EXPECT_EQ(j["build"]["extensions"][1]["cause"], "source-error");
  EXPECT_FALSE(j["build"]["extensions"][0].contains("cause"));  // it built
  ASSERT_NE(failedCandidateBuild(r.build), nullptr);
  EXPECT_EQ(failedCandidateBuild(r.build)->name, "k2");
  Json older = j;
  older["build"]["extensions"][1].erase("cause");
  older["build"]["extensions"][1].erase("cause_evidence");
  const auto decoded = decodeEvaluateResult(older);
  ASSERT_TRUE(decoded.value) << decoded.error;
  EXPECT_EQ(decoded.value->build.extensions[1].cause, "");
  EXPECT_EQ(decoded.value->build.extensions[1].error, "error: x");
}

TEST(EventCodec, ResultsOfOlderRunnersHaveNoRuntimeFlags) {
  Json j = toJson(sampleResult());
  EXPECT_EQ(j["runtime_flags"][0]["family"], "cached-output");
  EXPECT_EQ(j["runtime_flags"][0]["evidence"]["repeat_ms"], 0.01);
  j.erase("runtime_flags");
  j.erase("probes");
  Decoded<EvaluateResult> d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_TRUE(d.value->runtimeFlags.empty());
  EXPECT_TRUE(d.value->probes.empty());
}

TEST(EventCodec, TimingsOfOlderRunnersHaveNoTrialList) {
  Json j = toJson(sampleResult());
  EXPECT_EQ(j["timing"]["candidate"]["trials_ms"], Json::array({0.16, 0.9, 0.15}));
  EXPECT_EQ(j["timing"]["candidate"]["max_ms"], 0.9);
  j["timing"]["candidate"].erase("trials_ms");
  j["timing"]["candidate"].erase("max_ms");
  Decoded<EvaluateResult> d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_TRUE(d.value->timing->candidate.trialsMs.empty());
  EXPECT_EQ(d.value->timing->candidate.maxMs, 0);
  // Only the list: the maximum is read from it.
  j["timing"]["candidate"]["trials_ms"] = Json::array({0.2, 0.7});
  d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(d.value->timing->candidate.maxMs, 0.7);
}

TEST(EventCodec, TimingsOfOlderRunnersHaveNoIntervalNorKernelTimeNorPin) {
  Json j = toJson(sampleResult());
  EXPECT_EQ(j["timing"]["speedup_ci95"], Json::array({12.5, 13.75}));
  EXPECT_EQ(j["timing"]["candidate"]["kernel_ms"], 0.04);
  Decoded<EvaluateResult> d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_DOUBLE_EQ(*d.value->timing->candidate.busy(), 0.04 / 0.16);
  EXPECT_EQ(j["timing"]["cpu_pin"], "thread");
  EXPECT_EQ(j["timing"]["pinned_cpu"], 5);
  EXPECT_EQ(d.value->timing->pinnedCpu, 5);
  j["timing"].erase("speedup_ci95");
  j["timing"]["candidate"].erase("kernel_ms");
  j["timing"].erase("cpu_pin");
  j["timing"].erase("pinned_cpu");
  d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_FALSE(d.value->timing->pinnedCpu);
  EXPECT_EQ(d.value->timing->cpuPin, CpuPinScope::None);
  EXPECT_FALSE(d.value->timing->speedupCi95);
  EXPECT_FALSE(d.value->timing->candidate.kernelMs);
  EXPECT_FALSE(d.value->timing->candidate.busy());
  j["timing"]["speedup_ci95"] = Json::array({12.5});
  d = decodeEvaluateResult(j);
  EXPECT_FALSE(d.value);
  EXPECT_NE(d.error.find("timing.speedup_ci95: expected [low, high]"), std::string::npos) << d.error;
  j["timing"].erase("speedup_ci95");
  j["timing"]["cpu_pin"] = "core";
  j["timing"]["pinned_cpu"] = 1;
  d = decodeEvaluateResult(j);
  EXPECT_FALSE(d.value);
  EXPECT_NE(d.error.find("timing.cpu_pin: expected"), std::string::npos) << d.error;
}

TEST(EventCodec, IncorrectResultHasNoTimingButSaysWhy) {
  EvaluateResult r = sampleResult();
  r.timing.reset();
  r.timingNote = "not timed: the candidate is incorrect";
  r.kernels.clear();
  r.kernelsNote = "not profiled";
  const Json j = toJson(r);
  EXPECT_FALSE(j.contains("timing"));
  Decoded<EvaluateResult> d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
}

TEST(EventCodec, NonFiniteNumbersBecomeNullAndReadBackAsNaN) {
  EvaluateResult r = sampleResult();
  r.correctness.seeds[0].maxAbsErr = std::numeric_limits<double>::infinity();
  const Json j = toJson(r);
  EXPECT_TRUE(j["correctness"]["seeds"][0]["max_abs_err"].is_null());
  Decoded<EvaluateResult> d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_TRUE(std::isnan(d.value->correctness.seeds[0].maxAbsErr));
}

TEST(EventCodec, HelloAndBuildPayloadsRoundTrip) {
  Decoded<Environment> env = decodeHelloPayload(helloPayload(sampleEnvironment()));
  ASSERT_TRUE(env.value) << env.error;
  EXPECT_EQ(*env.value, sampleEnvironment());
  const BuildResult b{"sha256:1", sampleResult().build};
  Decoded<BuildResult> back = decodeBuildResult(toJson(b));
  ASSERT_TRUE(back.value) << back.error;
  EXPECT_EQ(*back.value, b);
}

// What keeps the candidate in (docs/security.md): absent from older runners' environments, round-trips when
// given.
TEST(EventCodec, TheEnvironmentsContainmentRoundTripsAndIsAbsentFromOlderRunners) {
  Environment e = sampleEnvironment();
  EXPECT_FALSE(toJson(e).contains("containment"));
  Containment c;
  c.filesystem = "landlock";
  c.landlockAbi = 7;
  c.writable = {"/tmp/kscope-1", "/home/me/.cache/kernelscope/build"};
  c.network = "seccomp";
  c.processes = "subreaper";
  c.buildCache = "sealed";
  c.notes = {"2 thread(s) started before Landlock applied are not bound by it"};
  e.containment = c;
  const Json j = toJson(e);
  EXPECT_EQ(j["containment"]["landlock_abi"], 7);
  EXPECT_EQ(j["containment"]["build_cache"], "sealed");
  Decoded<Environment> back = decodeHelloPayload(helloPayload(e));
  ASSERT_TRUE(back.value) << back.error;
  EXPECT_EQ(*back.value, e);
  Json older = j;
  older.erase("containment");
  Decoded<Environment> old = decodeHelloPayload(Json{{"environment", older}});
  ASSERT_TRUE(old.value) << old.error;
  EXPECT_FALSE(old.value->containment);
}

TEST(EventCodec, WarmUpResultRoundTripsThroughTheResultEvent) {
  const WarmUpResult r{
      "cuda", 7.5, {{"cuda_context", 0.41}, {"cublas", 0.09}, {"cudnn", 0.1}, {"profiler", 6.9}}};
  const Json j = toJson(r);
  EXPECT_EQ(j["device"], "cuda");
  EXPECT_EQ(j["seconds"], 7.5);
  ASSERT_EQ(j["steps"].size(), 4u);
  EXPECT_EQ(j["steps"][3]["step"], "profiler");
  EXPECT_EQ(j["steps"][3]["seconds"], 6.9);
  const ResultEvent event{"w", true, j};
  const ResultEvent back = roundTrip<ResultEvent>(event);
  EXPECT_EQ(back, event);
  Decoded<WarmUpResult> d = decodeWarmUpResult(back.result);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
}

TEST(EventCodec, WarmUpResultReadsFakeRunnersAndNamesWhatIsMissing) {
  // tests/supervisor/fake_runner.py's answer: no steps, and a key readers do not know.
  Decoded<WarmUpResult> fake =
      decodeWarmUpResult(Json::parse(R"({"device": "cpu", "seconds": 0.0, "steps": [], "pid": 4321})"));
  ASSERT_TRUE(fake.value) << fake.error;
  EXPECT_EQ(*fake.value, (WarmUpResult{"cpu", 0.0, {}}));
  EXPECT_EQ(decodeWarmUpResult(Json::parse(R"({"seconds": 1.0, "steps": []})")).error,
            "result.device: expected a string, got nothing");
  EXPECT_EQ(decodeWarmUpResult(Json::parse(R"({"device": "cpu", "seconds": 1.0, "steps": [{"seconds": 1}]})"))
                .error,
            "result.steps[0].step: expected a string, got nothing");
}

TEST(EventCodec, ErrorsRoundTripWithTracebackAndDiagnostics) {
  ErrorInfo e;
  e.kind = ErrorKind::Runtime;
  e.message = "RuntimeError: boom";
  e.program = "candidate";
  e.line = 17;
  e.phase = "correctness";
  e.traceback = {{"/s/candidate.py", 17, "forward", "raise RuntimeError('boom')", "candidate"},
                 {"/usr/lib/torch/nn/module.py", 1500, "_call_impl", "return f()", ""}};
  e.diagnostics = {{"main.cpp", 3, 1, "error", "expected ';'", 9}};
  e.runnerExits = true;
  const ErrorEvent event{"9", e};
  EXPECT_EQ(roundTrip<ErrorEvent>(event), event);

  ErrorInfo crash;
  crash.kind = ErrorKind::Crash;
  crash.message = "runner died";
  crash.signal = 11;
  crash.stderrTail = "Segmentation fault\n";
  const ErrorEvent crashEvent{"10", crash};
  EXPECT_EQ(roundTrip<ErrorEvent>(crashEvent), crashEvent);
}

TEST(EventCodec, BadEventsAreReportedNotThrown) {
  EXPECT_EQ(decodeEvent(R"({"event": "phase", "id": "1", "phase": "dance", "deadline_s": 3})").error,
            "phase: unknown phase \"dance\"");
  EXPECT_EQ(decodeEvent(R"({"event": "sing"})").error, "event: unknown event \"sing\"");
  EXPECT_FALSE(decodeEvent("{").value);
  // A runner runs untrusted code: a result nested 100,000 deep is refused before it is parsed or copied.
  const std::string deep = R"({"event": "result", "id": "1", "result": )" + std::string(100000, '[') +
                           std::string(100000, ']') + "}";
  EXPECT_EQ(decodeEvent(deep).error, "JSON nested deeper than 512 levels (column 553)");
  Decoded<EvaluateResult> d = decodeEvaluateResult(Json{{"code_hash", "x"}});
  EXPECT_EQ(d.error, "result.device: expected a string, got nothing");
}

TEST(EventCodec, InvalidUtf8InMessagesIsReplacedNotFatal) {
  ErrorInfo e;
  e.kind = ErrorKind::Build;
  e.message = std::string("nvcc said \xff\xfe");
  const std::string line = encodeEvent(ErrorEvent{"1", e});
  Decoded<Event> d = decodeEvent(line);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_NE(std::get<ErrorEvent>(*d.value).error.message.find("nvcc said"), std::string::npos);
}
