// Requests: encodeRequest, decodeRequest, requestIdOf (json_codec.h).
#include <utility>

#include "core/json/json_fields.h"
#include "core/json/nesting.h"
#include "core/protocol/json_codec.h"

namespace ks::protocol {

using json::DecodeError;
using json::Fields;

const char* opName(Op op) {
  switch (op) {
    case Op::Hello:
      return "hello";
    case Op::Evaluate:
      return "evaluate";
    case Op::Build:
      return "build";
    case Op::WarmUp:
      return "warm_up";
    case Op::Shutdown:
      return "shutdown";
  }
  return "?";
}

const char* cpuPinScopeName(CpuPinScope scope) {
  switch (scope) {
    case CpuPinScope::None:
      return "none";
    case CpuPinScope::Thread:
      return "thread";
    case CpuPinScope::Process:
      return "process";
  }
  return "none";
}

std::optional<CpuPinScope> cpuPinScopeFrom(std::string_view name) {
  for (CpuPinScope s : {CpuPinScope::None, CpuPinScope::Thread, CpuPinScope::Process})
    if (name == cpuPinScopeName(s)) return s;
  return std::nullopt;
}

namespace {

const char* languageName(CodeLanguage language) { return language == CodeLanguage::Cuda ? "cuda" : "python"; }

CodeLanguage languageFrom(const Fields& f, std::string_view key) {
  const std::string s = f.strOr(key, "python");
  if (s == "python") return CodeLanguage::Python;
  if (s == "cuda") return CodeLanguage::Cuda;
  throw DecodeError{f.pathOf(key) + ": expected \"python\" or \"cuda\", got \"" + s + "\""};
}

Op opFrom(const Fields& f) {
  const std::string s = f.str("op");
  for (Op op : {Op::Hello, Op::Evaluate, Op::Build, Op::WarmUp, Op::Shutdown})
    if (s == opName(op)) return op;
  throw DecodeError{"op: expected one of hello, evaluate, build, warm_up, shutdown, got \"" + s + "\""};
}

Json toJson(const TaskSpec& t) {
  Json j = {{"key", t.key}, {"language", languageName(t.language)}, {"reference", t.reference}};
  if (!t.inputs.empty()) {
    Json inputs = Json::array();
    for (const auto& i : t.inputs)
      inputs.push_back({{"name", i.name}, {"shape", i.shape}, {"dtype", i.dtype}});
    j["inputs"] = std::move(inputs);
  }
  if (t.gemm) {
    j["gemm"] = {{"m", t.gemm->m}, {"n", t.gemm->n}, {"k", t.gemm->k}};
    if (!t.gemm->padTo.empty()) j["gemm"]["pad_to"] = t.gemm->padTo;
  }
  return j;
}

TaskSpec taskFrom(const Fields& f) {
  f.rejectUnknown({"key", "language", "reference", "inputs", "gemm"});
  TaskSpec t;
  t.key = f.strOr("key", "");
  t.language = languageFrom(f, "language");
  t.reference = f.str("reference");
  for (const Fields& i : f.objects("inputs")) {
    i.rejectUnknown({"name", "shape", "dtype"});
    TensorSpec spec{i.str("name"), i.int64s("shape"), i.strOr("dtype", "float32")};
    for (std::int64_t d : spec.shape)
      if (d < 0) throw DecodeError{i.pathOf("shape") + ": dimensions must be >= 0"};
    t.inputs.push_back(std::move(spec));
  }
  if (f.has("gemm")) {
    const Fields g = f.object("gemm");
    g.rejectUnknown({"m", "n", "k", "pad_to"});
    GemmSpec gemm{g.int64("m", 1), g.int64("n", 1), g.int64("k", 1), {}};
    if (g.has("pad_to")) gemm.padTo = g.int64s("pad_to");
    if (!gemm.padTo.empty() && gemm.padTo.size() != 3)
      throw DecodeError{g.pathOf("pad_to") + ": expected [BM, BN, BK]"};
    for (std::int64_t d : gemm.padTo)
      if (d < 1) throw DecodeError{g.pathOf("pad_to") + ": tile sizes must be >= 1"};
    if (t.language != CodeLanguage::Cuda) throw DecodeError{"task.gemm: only a native (cuda) task is a GEMM"};
    if (!t.inputs.empty())
      throw DecodeError{"task.inputs: a GEMM task's inputs are made by the runner; give task.gemm alone"};
    t.gemm = std::move(gemm);
  }
  if (t.language == CodeLanguage::Cuda && t.inputs.empty() && !t.gemm)
    throw DecodeError{"task.inputs: a native (cuda) task needs its inputs"};
  return t;
}

Json toJson(const CandidateSpec& c) {
  Json j = {{"id", c.id}, {"language", languageName(c.language)}, {"code", c.code}};
  if (!c.entry.empty()) j["entry"] = c.entry;
  return j;
}

CandidateSpec candidateFrom(const Fields& f) {
  f.rejectUnknown({"id", "language", "code", "entry"});
  CandidateSpec c;
  c.id = f.strOr("id", "");
  c.language = languageFrom(f, "language");
  c.code = f.str("code");
  c.entry = f.strOr("entry", "");
  if (c.language == CodeLanguage::Cuda && c.entry.empty())
    throw DecodeError{"candidate.entry: a native (cuda) candidate needs the C++ function to call"};
  return c;
}

Json toJson(const Options& o) {
  Json j = Json::object();
  if (!o.device.empty()) j["device"] = o.device;
  j["seeds"] = o.seeds;
  if (o.trials) j["trials"] = *o.trials;
  if (o.warmup) j["warmup"] = *o.warmup;
  j["seed"] = o.seed;
  if (!o.scratch.empty()) j["scratch"] = o.scratch;
  if (!o.cache.empty()) j["cache"] = o.cache;
  if (o.atol) j["atol"] = *o.atol;
  if (o.rtol) j["rtol"] = *o.rtol;
  if (o.profileKernels) j["profile_kernels"] = *o.profileKernels;
  if (!o.gpuShare.empty()) j["gpu_share"] = o.gpuShare;
  if (o.cpuPin) j["cpu_pin"] = cpuPinScopeName(*o.cpuPin);
  if (!o.arch.empty()) j["arch"] = o.arch;
  if (o.gemmWarmupSeconds) j["gemm_warmup_s"] = *o.gemmWarmupSeconds;
  if (o.gemmSeconds) j["gemm_s"] = *o.gemmSeconds;
  if (!o.gemmBaselines.empty()) j["gemm_baselines"] = o.gemmBaselines;
  if (!o.gemmMethods.empty()) j["gemm_methods"] = o.gemmMethods;
  if (o.cudaL1Eval)
    j["cuda_l1_eval"] = {{"correct_trials", o.cudaL1Eval->correctTrials},
                         {"global_trials", o.cudaL1Eval->globalTrials},
                         {"perf_trials", o.cudaL1Eval->perfTrials},
                         {"flushed_twin", o.cudaL1Eval->flushedTwin}};
  return j;
}

Options optionsFrom(const Fields& f) {
  f.rejectUnknown(
      {"device", "seeds", "trials", "warmup", "seed", "scratch", "cache", "atol", "rtol", "profile_kernels",
       "gpu_share", "cpu_pin", "arch", "gemm_warmup_s", "gemm_s", "gemm_baselines",
       "gemm_methods", "cuda_l1_eval"});
  Options o;
  o.device = f.strOr("device", "");
  if (!o.device.empty() && o.device != "cuda" && o.device != "cpu")
    throw DecodeError{"options.device: expected \"cuda\" or \"cpu\", got \"" + o.device + "\""};
  o.seeds = f.optInteger("seeds", 1).value_or(o.seeds);
  o.trials = f.optInteger("trials", 1);
  o.warmup = f.optInteger("warmup", 0);
  if (f.has("seed")) o.seed = f.int64("seed", 0);
  o.scratch = f.strOr("scratch", "");
  o.cache = f.strOr("cache", "");
  o.atol = f.optNumber("atol");
  o.rtol = f.optNumber("rtol");
  for (const char* key : {"atol", "rtol"})
    if (f.has(key) && !(f.number(key) >= 0))
      throw DecodeError{"options." + std::string(key) + ": must be >= 0"};
  o.profileKernels = f.optBoolean("profile_kernels");
  o.gpuShare = f.strOr("gpu_share", "");
  o.gemmWarmupSeconds = f.optNumber("gemm_warmup_s");
  o.gemmSeconds = f.optNumber("gemm_s");
  for (const char* key : {"gemm_warmup_s", "gemm_s"})
    if (f.has(key) && !(f.number(key) >= 0 && f.number(key) <= 3600))
      throw DecodeError{"options." + std::string(key) + ": seconds from 0 to 3600"};
  o.gemmBaselines = f.strings("gemm_baselines");
  o.gemmMethods = f.strings("gemm_methods");
  if (f.has("cuda_l1_eval")) {
    const Fields l1 = f.object("cuda_l1_eval");
    l1.rejectUnknown({"correct_trials", "global_trials", "perf_trials", "flushed_twin"});
    Options::CudaL1EvalOptions e;
    e.correctTrials = l1.optInteger("correct_trials", 1).value_or(e.correctTrials);
    e.globalTrials = l1.optInteger("global_trials", 1).value_or(e.globalTrials);
    e.perfTrials = l1.optInteger("perf_trials", 1).value_or(e.perfTrials);
    e.flushedTwin = l1.booleanOr("flushed_twin", e.flushedTwin);
    for (auto [key, value] : {std::pair{"correct_trials", e.correctTrials}, std::pair{"global_trials", e.globalTrials},
                              std::pair{"perf_trials", e.perfTrials}})
      if (value > 1000) throw DecodeError{l1.pathOf(key) + ": at most 1000 trials"};
    o.cudaL1Eval = e;
  }
  o.arch = f.strOr("arch", "");
  if (!o.arch.empty() && o.arch.rfind("sm_", 0) != 0 && o.arch.rfind("compute_", 0) != 0)
    throw DecodeError{"options.arch: expected an nvcc -arch such as \"sm_90a\", got \"" + o.arch + "\""};
  if (f.has("cpu_pin")) {
    const std::string pin = f.str("cpu_pin");
    o.cpuPin = cpuPinScopeFrom(pin);
    if (!o.cpuPin)
      throw DecodeError{"options.cpu_pin: expected \"process\", \"thread\" or \"none\", got \"" + pin + "\""};
  }
  return o;
}

}  // namespace

std::string encodeRequest(const Request& r) {
  Json j = {{"id", r.id}, {"op", opName(r.op)}};
  if (r.task) j["task"] = toJson(*r.task);
  if (r.candidate) j["candidate"] = toJson(*r.candidate);
  if (r.op == Op::Evaluate || r.op == Op::Build || r.op == Op::WarmUp) j["options"] = toJson(r.options);
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Decoded<Request> decodeRequest(std::string_view line) {
  if (std::string deep = json::nestingError(line); !deep.empty()) return {std::nullopt, "JSON " + deep};
  Json j = Json::parse(line, nullptr, false);
  if (j.is_discarded()) return {std::nullopt, "not valid JSON"};
  try {
    Fields f(j, "");
    f.rejectUnknown({"id", "op", "task", "candidate", "options"});
    Request r;
    r.id = f.str("id");
    r.op = opFrom(f);
    if (f.has("task")) r.task = taskFrom(f.object("task"));
    if (f.has("candidate")) r.candidate = candidateFrom(f.object("candidate"));
    if (f.has("options")) r.options = optionsFrom(f.object("options"));
    if (r.op == Op::Evaluate && (!r.task || !r.candidate))
      throw DecodeError{"evaluate needs \"task\" and \"candidate\""};
    if (r.op == Op::Build && !r.candidate) throw DecodeError{"build needs \"candidate\""};
    if (r.op == Op::Build && r.candidate->language == CodeLanguage::Cuda && !r.task)
      throw DecodeError{"build of a native (cuda) candidate needs \"task\" (its inputs)"};
    return {std::move(r), {}};
  } catch (const DecodeError& e) {
    return {std::nullopt, e.message};
  }
}

std::string requestIdOf(std::string_view line) {
  Json j = Json::parse(line, nullptr, false);
  if (j.is_object() && j.contains("id") && j["id"].is_string()) return j["id"].get<std::string>();
  return "";
}

}  // namespace ks::protocol
