// Result payloads: Environment, EvaluateResult, BuildResult, WarmUpResult to and from JSON (json_codec.h).
#include <algorithm>
#include <utility>

#include "core/json/json_fields.h"
#include "core/protocol/diagnostic_json.h"
#include "core/protocol/json_codec.h"

namespace ks::protocol {

using detail::diagnosticsFrom;
using detail::diagnosticsJson;
using json::DecodeError;
using json::Fields;
using json::number;
using json::numbers;

namespace {

template <class T, class F>
Json arrayOf(const std::vector<T>& items, F&& toJsonOne) {
  Json a = Json::array();
  for (const auto& item : items) a.push_back(toJsonOne(item));
  return a;
}

template <class F>
auto decodeAs(const Json& json, const char* what, F&& read) -> Decoded<decltype(read(Fields(json, what)))> {
  try {
    return {read(Fields(json, what)), {}};
  } catch (const DecodeError& e) {
    return {std::nullopt, e.message};
  }
}

Json clocksJson(const Clocks& c) {
  Json j = Json::object();
  if (c.sm) j["sm_mhz"] = *c.sm;
  if (c.memory) j["memory_mhz"] = *c.memory;
  if (c.smMax) j["sm_max_mhz"] = *c.smMax;
  if (c.memoryMax) j["memory_max_mhz"] = *c.memoryMax;
  return j;
}

Clocks clocksFrom(const Fields& f) {
  return {f.optInteger("sm_mhz", 0), f.optInteger("memory_mhz", 0), f.optInteger("sm_max_mhz", 0),
          f.optInteger("memory_max_mhz", 0)};
}

Environment environmentFrom(const Fields& f) {
  Environment e;
  e.runner = f.strOr("runner", "");
  e.device = f.str("device");
  e.deviceName = f.str("device_name");
  e.driver = f.strOr("driver", "");
  e.cuda = f.strOr("cuda", "");
  e.torch = f.str("torch");
  e.python = f.str("python");
  e.pythonLink = f.strOr("python_link", "");
  e.cpu = f.strOr("cpu", "");
  e.hostname = f.strOr("hostname", "");
  e.cpuThreads = f.optInteger("cpu_threads", 0).value_or(0);
  if (f.has("clocks")) e.clocks = clocksFrom(f.object("clocks"));
  if (f.has("containment")) {
    const Fields c = f.object("containment");
    Containment k;
    k.filesystem = c.strOr("filesystem", "none");
    k.landlockAbi = c.optInteger("landlock_abi", 0).value_or(0);
    k.writable = c.strings("writable");
    k.network = c.strOr("network", "none");
    k.processes = c.strOr("processes", "none");
    k.processLimit = c.has("process_limit") ? c.int64("process_limit", 0) : 0;
    k.fileSizeLimit = c.has("file_size_limit") ? c.int64("file_size_limit", 0) : 0;
    k.buildCache = c.strOr("build_cache", "none");
    k.notes = c.strings("notes");
    e.containment = k;
  }
  return e;
}

Json extensionJson(const ExtensionBuild& x) {
  Json j = {{"name", x.name},
            {"program", x.program},
            {"ok", x.ok},
            {"seconds", number(x.seconds)},
            {"cache_hit", x.cacheHit},
            {"flags", x.flags},
            {"directory", x.directory}};
  if (!x.ok) j["error"] = x.error;
  if (!x.ok && !x.cause.empty()) {
    j["cause"] = x.cause;
    j["cause_evidence"] = x.causeEvidence;
  }
  if (!x.diagnostics.empty()) j["diagnostics"] = diagnosticsJson(x.diagnostics);
  if (!x.kernels.empty())
    j["kernels"] = arrayOf(x.kernels, [](const KernelResources& k) -> Json {
      return {{"name", k.name},
              {"arch", k.arch},
              {"registers", k.registers},
              {"shared_bytes", k.sharedBytes},
              {"stack_bytes", k.stackBytes},
              {"spill_stores", k.spillStores},
              {"spill_loads", k.spillLoads}};
    });
  return j;
}

ExtensionBuild extensionFrom(const Fields& f) {
  ExtensionBuild x;
  x.name = f.str("name");
  x.program = f.strOr("program", "");
  x.ok = f.boolean("ok");
  x.seconds = f.numberOr("seconds", 0);
  x.cacheHit = f.booleanOr("cache_hit", false);
  x.flags = f.strings("flags");
  x.directory = f.strOr("directory", "");
  x.error = f.strOr("error", "");
  x.cause = f.strOr("cause", "");
  x.causeEvidence = f.strOr("cause_evidence", "");
  x.diagnostics = diagnosticsFrom(f, "diagnostics");
  for (const Fields& k : f.objects("kernels"))
    x.kernels.push_back({k.str("name"), k.strOr("arch", ""), k.integer("registers", 0),
                         k.integer("shared_bytes", 0), k.integer("stack_bytes", 0),
                         k.integer("spill_stores", 0), k.integer("spill_loads", 0)});
  return x;
}

Json buildJson(const BuildReport& b) {
  return {{"seconds", number(b.seconds)},
          {"cache_hit", b.cacheHit},
          {"flags", b.flags},
          {"extensions", arrayOf(b.extensions, extensionJson)}};
}

BuildReport buildFrom(const Fields& f) {
  BuildReport b;
  b.seconds = f.numberOr("seconds", 0);
  b.cacheHit = f.booleanOr("cache_hit", true);
  b.flags = f.strings("flags");
  for (const Fields& x : f.objects("extensions")) b.extensions.push_back(extensionFrom(x));
  return b;
}

Json seedJson(const SeedCheck& s) {
  return {{"seed", s.seed},
          {"passed", s.passed},
          {"max_abs_err", number(s.maxAbsErr)},
          {"max_rel_err", number(s.maxRelErr)},
          {"atol", number(s.atol)},
          {"rtol", number(s.rtol)},
          {"message", s.message}};
}

SeedCheck seedFrom(const Fields& f) {
  return {f.int64("seed", 0), f.boolean("passed"), f.number("max_abs_err"), f.number("max_rel_err"),
          f.number("atol"),   f.number("rtol"),    f.strOr("message", "")};
}

Json correctnessJson(const Correctness& c) {
  Json poison = {{"applied", c.poison.applied},
                 {"bytes", c.poison.bytes},
                 {"blocks", c.poison.blocks},
                 {"missed_bytes", c.poison.missedBytes},
                 {"note", c.poison.note}};
  return {{"passed", c.passed},
          {"seeds", arrayOf(c.seeds, seedJson)},
          {"inputs_mutated", c.inputsMutated},
          {"mutations", arrayOf(c.mutations,
                                [](const InputMutation& m) -> Json {
                                  return {{"model", m.model}, {"input", m.input}, {"seed", m.seed}};
                                })},
          {"outputs", arrayOf(c.outputs,
                              [](const OutputSpec& o) -> Json {
                                return {{"dtype", o.dtype}, {"shape", o.shape}};
                              })},
          {"poison", std::move(poison)}};
}

Correctness correctnessFrom(const Fields& f) {
  Correctness c;
  c.passed = f.boolean("passed");
  for (const Fields& s : f.objects("seeds")) c.seeds.push_back(seedFrom(s));
  c.inputsMutated = f.booleanOr("inputs_mutated", false);
  for (const Fields& m : f.objects("mutations"))
    c.mutations.push_back({m.str("model"), m.integer("input", 0), m.int64("seed", 0)});
  for (const Fields& o : f.objects("outputs")) c.outputs.push_back({o.str("dtype"), o.int64s("shape")});
  if (f.has("poison")) {
    const Fields p = f.object("poison");
    c.poison = {p.boolean("applied"), p.int64("bytes", 0), p.int64("blocks", 0), p.int64("missed_bytes", 0),
                p.strOr("note", "")};
  }
  return c;
}

Json statsJson(const TimingStats& s) {
  Json j = {{"median_ms", number(s.medianMs)},
            {"min_ms", number(s.minMs)},
            {"iqr_ms", number(s.iqrMs)},
            {"cv", number(s.cv)},
            {"host_median_ms", number(s.hostMedianMs)},
            {"host_min_ms", number(s.hostMinMs)},
            {"clock_gap_ms", number(s.clockGapMs)},
            {"max_ms", number(s.maxMs)}};
  if (s.kernelMs) j["kernel_ms"] = number(*s.kernelMs);
  j["trials_ms"] = numbers(s.trialsMs);
  return j;
}

TimingStats statsFrom(const Fields& f) {
  TimingStats s{f.number("median_ms"),      f.number("min_ms"),      f.number("iqr_ms"),      f.number("cv"),
                f.number("host_median_ms"), f.number("host_min_ms"), f.number("clock_gap_ms")};
  s.trialsMs = f.numbers("trials_ms");  // results of older runners have neither
  s.maxMs = f.numberOr("max_ms", s.trialsMs.empty() ? 0 : *std::max_element(s.trialsMs.begin(), s.trialsMs.end()));
  s.kernelMs = f.optNumber("kernel_ms");  // absent: not profiled, or an older runner
  return s;
}

Json timingJson(const Timing& t) {
  Json j = {{"clock", t.clock},
            {"trials", t.trials},
            {"warmup", t.warmup},
            {"order_seed", t.orderSeed},
            {"cache_flush_bytes", t.cacheFlushBytes},
            {"reference", statsJson(t.reference)},
            {"candidate", statsJson(t.candidate)},
            {"speedup", number(t.speedup)}};
  if (t.speedupCi95) j["speedup_ci95"] = numbers({t.speedupCi95->low, t.speedupCi95->high});
  j["host_speedup"] = number(t.hostSpeedup);
  if (t.pinnedCpu) {
    j["cpu_pin"] = cpuPinScopeName(t.cpuPin);
    j["pinned_cpu"] = *t.pinnedCpu;
  }
  return j;
}

Timing timingFrom(const Fields& f) {
  Timing t;
  t.clock = f.str("clock");
  t.trials = f.integer("trials", 0);
  t.warmup = f.integer("warmup", 0);
  t.orderSeed = f.int64("order_seed", 0);
  t.cacheFlushBytes = f.has("cache_flush_bytes") ? f.int64("cache_flush_bytes", 0) : 0;
  t.reference = statsFrom(f.object("reference"));
  t.candidate = statsFrom(f.object("candidate"));
  t.speedup = f.number("speedup");
  t.hostSpeedup = f.number("host_speedup");
  if (f.has("pinned_cpu")) {  // absent: not pinned, or an older runner
    const std::string pin = f.str("cpu_pin");
    const std::optional<CpuPinScope> scope = cpuPinScopeFrom(pin);
    if (!scope) throw DecodeError{f.pathOf("cpu_pin") + ": expected \"thread\" or \"process\", got \"" + pin + "\""};
    t.cpuPin = *scope;
    t.pinnedCpu = f.integer("pinned_cpu", 0);
  }
  if (f.has("speedup_ci95")) {  // absent in results of older runners
    const std::vector<double> ci = f.numbers("speedup_ci95");
    if (ci.size() != 2) throw DecodeError{f.pathOf("speedup_ci95") + ": expected [low, high]"};
    t.speedupCi95 = Timing::Interval{ci[0], ci[1]};
  }
  return t;
}

Json kernelJson(const KernelLaunch& k) {
  return {{"model", k.model},
          {"name", k.name},
          {"stream", k.stream},
          {"calls", k.calls},
          {"total_us", number(k.totalUs)}};
}

KernelLaunch kernelFrom(const Fields& f) {
  return {f.str("model"), f.str("name"), f.int64("stream", 0), f.integer("calls", 0), f.number("total_us")};
}

Json runtimeFlagJson(const RuntimeFlag& f) {
  return {{"family", f.family},    {"severity", f.severity}, {"confidence", number(f.confidence)},
          {"probe", f.probe},      {"message", f.message},   {"lines", f.lines},
          {"evidence", f.evidence}};
}

RuntimeFlag runtimeFlagFrom(const Fields& f) {
  RuntimeFlag r;
  r.family = f.str("family");
  r.severity = f.str("severity");
  r.confidence = f.numberOr("confidence", 0.5);
  r.probe = f.strOr("probe", "");
  r.message = f.str("message");
  for (std::int64_t line : f.int64s("lines")) r.lines.push_back(static_cast<int>(line));
  if (f.has("evidence")) r.evidence = f.raw("evidence");
  return r;
}

Json baselinesJson(const GemmBaselines& b) {
  return {{"order_seed", b.orderSeed},
          {"server_qps", number(b.serverQps)},
          {"autotune_algorithms", b.autotuneAlgorithms},
          {"notes", b.notes},
          {"timings", arrayOf(b.timings, [](const BaselineTiming& t) -> Json {
             Json j = {{"baseline", t.baseline},
                       {"method", t.method},
                       {"rounds", t.rounds},
                       {"baseline_ms", number(t.baselineMs)},
                       {"candidate_ms", number(t.candidateMs)},
                       {"speedup", number(t.speedup)},
                       {"host_baseline_ms", number(t.hostBaselineMs)},
                       {"host_candidate_ms", number(t.hostCandidateMs)}};
             if (!t.fasterOf.empty()) j["faster_of"] = t.fasterOf;
             if (!t.clock.empty()) j["clock"] = t.clock;
             if (t.eventSpeedup > 0) {
               j["event_baseline_ms"] = number(t.eventBaselineMs);
               j["event_candidate_ms"] = number(t.eventCandidateMs);
               j["event_speedup"] = number(t.eventSpeedup);
             }
             if (t.spread > 0) j["spread"] = number(t.spread);
             return j;
           })}};
}

GemmBaselines baselinesFrom(const Fields& f) {
  GemmBaselines b;
  b.orderSeed = f.int64("order_seed", 0);
  b.serverQps = f.numberOr("server_qps", 0);
  b.autotuneAlgorithms = f.integer("autotune_algorithms", 0);
  b.notes = f.strings("notes");
  for (const Fields& t : f.objects("timings")) {
    BaselineTiming x;
    x.baseline = t.str("baseline");
    x.method = t.str("method");
    x.rounds = t.integer("rounds", 0);
    x.baselineMs = t.number("baseline_ms");
    x.candidateMs = t.number("candidate_ms");
    x.speedup = t.number("speedup");
    x.hostBaselineMs = t.numberOr("host_baseline_ms", 0);
    x.hostCandidateMs = t.numberOr("host_candidate_ms", 0);
    x.fasterOf = t.strOr("faster_of", "");
    x.clock = t.strOr("clock", "");
    x.eventBaselineMs = t.numberOr("event_baseline_ms", 0);
    x.eventCandidateMs = t.numberOr("event_candidate_ms", 0);
    x.eventSpeedup = t.numberOr("event_speedup", 0);
    x.spread = t.numberOr("spread", 0);
    b.timings.push_back(std::move(x));
  }
  return b;
}

Json cudaL1Json(const CudaL1Eval& e) {
  const CudaL1Check& c = e.check;
  Json check = {{"trials", c.trials},
                {"passed", c.passed},
                {"ok", c.ok},
                {"atol", number(c.atol)},
                {"rtol", number(c.rtol)},
                {"max_diff", number(c.maxDiff)},
                {"avg_diff", number(c.avgDiff)},
                {"worst_share", number(c.worstShare)}};
  if (!c.message.empty()) check["message"] = c.message;
  if (c.failedTrial > 0) {
    check["failed_trial"] = c.failedTrial;
    check["failed_seed"] = c.failedSeed;
  }
  Json j = {{"check", check},
            {"global_trials", e.globalTrials},
            {"perf_trials", e.perfTrials},
            {"warmup", e.warmup}};
  if (!e.clock.empty()) {
    j["clock"] = e.clock;
    j["scores"] = numbers(e.scores);
    j["reference_ms"] = numbers(e.referenceMs);
    j["candidate_ms"] = numbers(e.candidateMs);
    j["speedup"] = number(e.speedup);
    j["spread"] = number(e.spread);
    j["stopped_early"] = e.stoppedEarly;
  }
  if (e.flushedSpeedup > 0) {
    j["flushed_scores"] = numbers(e.flushedScores);
    j["flushed_speedup"] = number(e.flushedSpeedup);
  }
  if (!e.note.empty()) j["note"] = e.note;
  return j;
}

CudaL1Eval cudaL1From(const Fields& f) {
  CudaL1Eval e;
  const Fields c = f.object("check");
  e.check.trials = c.integer("trials", 0);
  e.check.passed = c.integer("passed", 0);
  e.check.ok = c.boolean("ok");
  e.check.atol = c.numberOr("atol", 0);
  e.check.rtol = c.numberOr("rtol", 0);
  e.check.maxDiff = c.numberOr("max_diff", 0);
  e.check.avgDiff = c.numberOr("avg_diff", 0);
  e.check.worstShare = c.numberOr("worst_share", 0);
  e.check.message = c.strOr("message", "");
  e.check.failedTrial = c.optInteger("failed_trial", 0).value_or(0);
  e.check.failedSeed = c.has("failed_seed") ? c.int64("failed_seed", 0) : 0;
  e.globalTrials = f.integer("global_trials", 0);
  e.perfTrials = f.integer("perf_trials", 0);
  e.warmup = f.integer("warmup", 0);
  e.clock = f.strOr("clock", "");
  e.scores = f.numbers("scores");
  e.referenceMs = f.numbers("reference_ms");
  e.candidateMs = f.numbers("candidate_ms");
  e.speedup = f.numberOr("speedup", 0);
  e.spread = f.numberOr("spread", 0);
  e.stoppedEarly = f.booleanOr("stopped_early", false);
  e.flushedScores = f.numbers("flushed_scores");
  e.flushedSpeedup = f.numberOr("flushed_speedup", 0);
  e.note = f.strOr("note", "");
  return e;
}

EvaluateResult evaluateFrom(const Fields& f) {
  EvaluateResult r;
  r.codeHash = f.str("code_hash");
  r.device = f.str("device");
  r.environment = environmentFrom(f.object("environment"));
  r.build = buildFrom(f.object("build"));
  r.correctness = correctnessFrom(f.object("correctness"));
  if (f.has("timing")) r.timing = timingFrom(f.object("timing"));
  r.timingNote = f.strOr("timing_note", "");
  for (const Fields& k : f.objects("kernels")) r.kernels.push_back(kernelFrom(k));
  r.kernelsNote = f.strOr("kernels_note", "");
  r.torchSettingsChanged = f.strings("torch_settings_changed");
  for (const Fields& flag : f.objects("runtime_flags")) r.runtimeFlags.push_back(runtimeFlagFrom(flag));
  if (f.has("probes")) r.probes = f.raw("probes");
  if (f.has("gpu_share")) {
    const Fields share = f.object("gpu_share");
    r.gpuShare = GpuShareWaits{share.number("shared_wait_s"), share.number("exclusive_wait_s")};
  }
  if (f.has("gemm")) {
    const Fields g = f.object("gemm");
    GemmRun run{g.int64("m", 0), g.int64("n", 0), g.int64("k", 0), 0, 0, 0};
    run.paddedM = g.has("padded_m") ? g.int64("padded_m", 0) : run.m;
    run.paddedN = g.has("padded_n") ? g.int64("padded_n", 0) : run.n;
    run.paddedK = g.has("padded_k") ? g.int64("padded_k", 0) : run.k;
    r.gemm = run;
  }
  if (f.has("baselines")) r.baselines = baselinesFrom(f.object("baselines"));  // absent: older runners
  if (f.has("cuda_l1_eval")) r.cudaL1 = cudaL1From(f.object("cuda_l1_eval"));
  return r;
}

}  // namespace

Json toJson(const Environment& e) {
  Json j = {{"runner", e.runner},
            {"device", e.device},
            {"device_name", e.deviceName},
            {"driver", e.driver},
            {"cuda", e.cuda},
            {"torch", e.torch},
            {"python", e.python},
            {"python_link", e.pythonLink},
            {"cpu", e.cpu},
            {"hostname", e.hostname},
            {"cpu_threads", e.cpuThreads},
            {"clocks", clocksJson(e.clocks)}};
  if (e.containment)
    j["containment"] = {{"filesystem", e.containment->filesystem},
                        {"landlock_abi", e.containment->landlockAbi},
                        {"writable", e.containment->writable},
                        {"network", e.containment->network},
                        {"processes", e.containment->processes},
                        {"process_limit", e.containment->processLimit},
                        {"file_size_limit", e.containment->fileSizeLimit},
                        {"build_cache", e.containment->buildCache},
                        {"notes", e.containment->notes}};
  return j;
}

Json toJson(const EvaluateResult& r) {
  Json j = {{"code_hash", r.codeHash},
            {"device", r.device},
            {"environment", toJson(r.environment)},
            {"build", buildJson(r.build)},
            {"correctness", correctnessJson(r.correctness)}};
  if (r.timing)
    j["timing"] = timingJson(*r.timing);
  else
    j["timing_note"] = r.timingNote;
  j["kernels"] = arrayOf(r.kernels, kernelJson);
  if (!r.kernelsNote.empty()) j["kernels_note"] = r.kernelsNote;
  j["torch_settings_changed"] = r.torchSettingsChanged;
  j["runtime_flags"] = arrayOf(r.runtimeFlags, runtimeFlagJson);
  j["probes"] = r.probes;
  if (r.gpuShare)
    j["gpu_share"] = {{"shared_wait_s", r.gpuShare->sharedWaitS}, {"exclusive_wait_s", r.gpuShare->exclusiveWaitS}};
  if (r.gemm)
    j["gemm"] = {{"m", r.gemm->m},
                 {"n", r.gemm->n},
                 {"k", r.gemm->k},
                 {"padded", r.gemm->padded()},
                 {"padded_m", r.gemm->paddedM},
                 {"padded_n", r.gemm->paddedN},
                 {"padded_k", r.gemm->paddedK}};
  if (r.baselines) j["baselines"] = baselinesJson(*r.baselines);
  if (r.cudaL1) j["cuda_l1_eval"] = cudaL1Json(*r.cudaL1);
  return j;
}

Json toJson(const BuildResult& r) { return {{"code_hash", r.codeHash}, {"build", buildJson(r.build)}}; }

Json toJson(const WarmUpResult& r) {
  return {{"device", r.device},
          {"seconds", number(r.seconds)},
          {"steps", arrayOf(r.steps, [](const WarmUpStep& s) -> Json {
             return {{"step", s.step}, {"seconds", number(s.seconds)}};
           })}};
}

Json helloPayload(const Environment& environment) { return {{"environment", toJson(environment)}}; }

Decoded<Environment> decodeEnvironment(const Json& json) {
  return decodeAs(json, "environment", environmentFrom);
}

Decoded<EvaluateResult> decodeEvaluateResult(const Json& json) {
  return decodeAs(json, "result", evaluateFrom);
}

Decoded<BuildResult> decodeBuildResult(const Json& json) {
  return decodeAs(json, "result", [](const Fields& f) {
    return BuildResult{f.str("code_hash"), buildFrom(f.object("build"))};
  });
}

Decoded<WarmUpResult> decodeWarmUpResult(const Json& json) {
  return decodeAs(json, "result", [](const Fields& f) {
    WarmUpResult r;
    r.device = f.str("device");
    r.seconds = f.number("seconds");
    for (const Fields& s : f.objects("steps")) r.steps.push_back({s.str("step"), s.number("seconds")});
    return r;
  });
}

Decoded<Environment> decodeHelloPayload(const Json& json) {
  return decodeAs(json, "result", [](const Fields& f) { return environmentFrom(f.object("environment")); });
}

const ExtensionBuild* failedCandidateBuild(const BuildReport& build) {
  for (const ExtensionBuild& x : build.extensions)
    if (!x.ok && x.program != "reference") return &x;
  return nullptr;
}

}  // namespace ks::protocol
