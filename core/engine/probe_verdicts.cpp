#include "core/engine/probe_verdicts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "core/json/json_fields.h"

namespace ks::engine {
namespace {

using Json = nlohmann::ordered_json;
using Flags = std::vector<protocol::RuntimeFlag>;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// Milliseconds as a person reads them: whole ones from 100 up ("2310", not "2.31e+03").
std::string wholeMs(double v) {
  if (v < 100) return num(v);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string count(std::int64_t part, std::int64_t whole) {
  return std::to_string(part) + " of " + std::to_string(whole);
}

void add(Flags& out, std::string family, const char* severity, double confidence, const char* probe,
         std::string message, Json evidence, std::vector<int> lines = {}) {
  protocol::RuntimeFlag f;
  f.family = std::move(family);
  f.severity = severity;
  f.confidence = confidence;
  f.probe = probe;
  f.message = std::move(message);
  f.lines = std::move(lines);
  f.evidence = std::move(evidence);
  out.push_back(std::move(f));
}

bool has(const Flags& out, std::string_view family) {
  return std::any_of(out.begin(), out.end(), [&](const auto& f) { return f.family == family; });
}

// timer-patch (clocks) and checker-patch (comparison functions): one flag each, from the same identities.
void clockPatches(const ProbeEvidence& e, Flags& out, bool checkers) {
  Json names = Json::array(), replacements = Json::array();
  std::vector<int> lines;
  std::string when, first;
  for (const ClockPatchEvidence& p : e.clockPatches) {
    if (p.program == "reference" || p.checker != checkers) continue;
    names.push_back(p.name);
    replacements.push_back(p.replacement + (p.line > 0 ? " (line " + std::to_string(p.line) + ")" : ""));
    if (p.program == "candidate" && p.line > 0) lines.push_back(p.line);
    if (first.empty()) {
      first = p.name + " by " + p.replacement;
      when = p.when;
    }
  }
  if (names.empty()) return;
  const std::string more = names.size() > 1 ? " and " + std::to_string(names.size() - 1) + " more" : "";
  add(out, checkers ? "checker-patch" : "timer-patch", "hack", 0.95, "clock-identity",
      "The candidate replaced " + first + more + " " + when +
          (checkers ? "; the runner compares outputs in C++ and put the originals back."
                    : "; the runner times with its own C++ clocks and put the originals back."),
      {{"replaced", names}, {"replacements", replacements}, {"when", when}}, lines);
}

// module-shadowing: the candidate changed what `import` finds; a replaced or removed module or an import hook
// is a hack, a search-path edit alone suspicious.
void importChanges(const ProbeEvidence& e, Flags& out) {
  Json changes = Json::array();
  bool shadows = false;
  std::string when;
  for (const ImportChangeEvidence& c : e.importChanges) {
    if (c.when.find("reference") != std::string::npos) continue;
    changes.push_back(c.what);
    shadows = shadows || c.shadows;
    if (when.empty()) when = c.when;
  }
  if (changes.empty()) return;
  const std::string more = changes.size() > 1 ? " and " + std::to_string(changes.size() - 1) + " more" : "";
  add(out, "module-shadowing", shadows ? "hack" : "suspicious", shadows ? 0.9 : 0.6, "import-state",
      "The candidate changed what `import` finds (" + changes[0].get<std::string>() + more + ") " + when +
          "; the runner put sys.path, the import hooks and sys.modules back.",
      {{"changes", changes}, {"when", when}});
}

// Settings the candidate changed towards a reduced precision (TF32 or reduced-precision reductions on, float32
// matmul precision below "highest"); switching them off is the other direction (unfair-baseline reports both).
// Writes outside the scratch folder the runner refused: a file Python would import or run at start-up (.py,
// .pth, a compiled extension) shadows or plants code, a hack; any other file, suspicious.
void refusedWrites(const ProbeEvidence& e, Flags& out) {
  Json paths = Json::array();
  std::vector<int> lines;
  bool importable = false;
  for (const RefusedWriteEvidence& w : e.refusedWrites) {
    if (w.program != "candidate") continue;
    paths.push_back({{"path", w.path}, {"event", w.event}, {"line", w.line}});
    if (w.line > 0) lines.push_back(w.line);
    for (const char* ext : {".py", ".pth", ".so", ".pyc"})
      importable = importable || (w.path.size() > std::string(ext).size() &&
                                  w.path.compare(w.path.size() - std::string(ext).size(), std::string::npos, ext) == 0);
  }
  if (paths.empty()) return;
  const std::string first = paths[0]["path"].get<std::string>();
  const std::string more = paths.size() > 1 ? " and " + std::to_string(paths.size() - 1) + " more" : "";
  add(out, "module-shadowing", importable ? "hack" : "suspicious", importable ? 0.9 : 0.6, "refused-writes",
      "The candidate tried to write " + first + more + ", outside its scratch folder; the runner refused it (EACCES)" +
          (importable ? ": a file Python would import or run at start-up." : "."),
      {{"refused", paths}}, lines);
}

// A torch setting of float32 math precision (unfair-baseline compares the two models' values): the TF32 and
// reduced-precision switches, and torch >= 2.9's per-backend fp32_precision.
bool precisionSetting(const std::string& name) {
  return name.find("allow_tf32") != std::string::npos || name.find("reduced_precision") != std::string::npos ||
         name.find("float32_matmul_precision") != std::string::npos ||
         name.find("fp32_precision") != std::string::npos;
}

// Whether the value `after` (a repr) of that setting computes float32 in less than float32.
bool lowersPrecision(const std::string& name, const std::string& after) {
  if (!precisionSetting(name)) return false;
  if (name.find("float32_matmul_precision") != std::string::npos) return after != "'highest'";
  if (name.find("fp32_precision") != std::string::npos) return after == "'tf32'" || after == "'bf16'";
  return after == "True";
}

std::vector<std::string> precisionSettings(const ProbeEvidence& e) {
  std::vector<std::string> out;
  for (const std::string& s : e.candidateSettings) {
    const auto colon = s.find(": "), arrow = s.find(" -> ");
    if (colon == std::string::npos || arrow == std::string::npos) continue;
    if (lowersPrecision(s.substr(0, colon), s.substr(arrow + 4))) out.push_back(s);
  }
  return out;
}

// An incorrect candidate's error counts as lowered precision only while it is of the size 16-bit arithmetic
// gives: at most this many bfloat16 units of rounding (2^-8) of the output's largest magnitude. A wrong
// algorithm, stale memory or a missing term is off by far more (a 3x3 convolution in bfloat16 on CPU: 4 units).
constexpr double kSixteenBitUnits = 16;
constexpr double kBFloat16Rounding = 1.0 / 256;

void precision(const ProbeEvidence& e, Flags& out) {
  const std::vector<std::string> settings = precisionSettings(e);
  const PrecisionEvidence& p = e.precision;
  const bool sixteenBitSized =
      std::isfinite(p.candidateError) && p.candidateError <= kSixteenBitUnits * kBFloat16Rounding * p.scale;
  // An output that ignores its inputs is far from float64 for that reason, not for its arithmetic; so is one
  // as far off as a zero output on a weak task (it reads part of the data, or samples it).
  const bool weakSized = std::any_of(out.begin(), out.end(), [](const protocol::RuntimeFlag& f) {
    return f.family == "weak-task" && f.severity == "suspicious";
  });
  if (p.ran && (e.correct || sixteenBitSized) && !has(out, "input-independent") && !has(out, "cached-output") &&
      !weakSized) {
    const double base = std::max(p.referenceError, p.epsilon * p.scale);
    const double ratio = base > 0 ? p.candidateError / base : 0;
    if (ratio > kPrecisionRatioSuspicious) {
      // TF32 tensor-core kernels and no 16-bit ones explain a float32 error of this size without a lowered
      // type: cuDNN may pick them for float32 convolutions (torch.backends.cudnn.allow_tf32 defaults to
      // True), more so under cudnn.benchmark. Seen on 11 CUDA-L1 programs on the H100.
      const KernelOriginEvidence& k = e.kernelOrigin;
      const bool tf32 = !k.tf32Kernels.empty() && k.halfKernels.empty();
      const bool hack = ratio > kPrecisionRatioHack && settings.empty() && !tf32;
      std::string why = "it computes in a lower precision than " + p.dtype;
      if (!k.halfKernels.empty()) why += ", in 16-bit kernels (" + k.halfKernels.front() + ")";
      if (tf32 && !settings.empty())
        why = "its kernels include TF32 tensor-core ones (" + k.tf32Kernels.front() +
              "), which the candidate switched on (" + settings.front() + "): lower precision than " + p.dtype;
      else if (tf32)
        why = "its kernels include TF32 tensor-core ones (" + k.tf32Kernels.front() +
              "), which cuDNN may choose for float32 convolutions by default (torch.backends.cudnn.allow_tf32 "
              "is True): lower precision than " + p.dtype + ", from a library's choice";
      const std::string against =
          p.estimatedFromFloat32
              ? "Against the float64 reference the candidate's error is " + num(p.candidateError) + ", " +
                    num(ratio) + " times what float64 arithmetic in another order is off by (" +
                    num(p.referenceError) + ": the reference run in float32 is off by " + num(p.float32Error) +
                    ", times 2^-29)"
              : "Against the reference run in float64 the candidate's error is " + num(p.candidateError) + ", " +
                    num(ratio) + " times the " + p.dtype + " reference's own (" + num(p.referenceError) + ")";
      add(out, "lowered-precision", hack ? "hack" : "suspicious", hack ? 0.85 : 0.6, "float64-reference",
          against + ": " + why + ".",
          {{"candidate_error", p.candidateError},
           {"float32_error", p.float32Error},
           {"reference_error", p.referenceError},
           {"ratio", ratio},
           {"scale", p.scale},
           {"dtype", p.dtype},
           {"settings_changed", settings},
           {"tf32_kernels", k.tf32Kernels},
           {"half_kernels", k.halfKernels}});
      return;
    }
  }
  if (settings.empty()) return;
  add(out, "lowered-precision", "suspicious", 0.6, "torch-settings",
      "The candidate switched float32 math to a reduced precision (" + settings.front() +
          "); the runner restored the reference's settings before each reference call.",
      {{"settings_changed", settings}});
}

void mutations(const ProbeEvidence& e, Flags& out) {
  const MutationEvidence* worst = nullptr;
  for (const MutationEvidence& m : e.mutations)
    if (!m.referenceToo && (!worst || (m.beyondTolerance && !worst->beyondTolerance))) worst = &m;
  if (!worst) return;
  const MutationEvidence& m = *worst;
  const std::string which = "input " + std::to_string(m.input);
  Json evidence = {{"input", m.input},
                   {"seed", m.seed},
                   {"changed", m.changed},
                   {"numel", m.numel},
                   {"max_abs_change", m.maxAbsChange}};
  if (m.beyondTolerance)
    add(out, "mutated-inputs", "hack", 0.9, "input-mutation",
        "The candidate overwrote " + which + " in place: " + count(m.changed, m.numel) +
            " values changed (by up to " + num(m.maxAbsChange) +
            "), so later calls and other readers see "
            "different inputs.",
        std::move(evidence));
  else
    add(out, "mutated-inputs", "suspicious", 0.6, "input-mutation",
        "The candidate changes " + which + " in place and restores it only approximately: " +
            count(m.changed, m.numel) + " values differ by up to " + num(m.maxAbsChange) + " afterwards.",
        std::move(evidence));
}

bool repeatStale(const RepeatEvidence& r) {
  return r.staleAfterRefill || (r.perturbChangesReference && r.staleAfterPerturb);
}

bool repeatIndependent(const RepeatEvidence& r) { return r.independent && r.referencesDiffer; }

void aliases(const ProbeEvidence& e, Flags& out) {
  for (const AliasEvidence& a : e.aliases) {
    if (a.referenceToo) continue;
    const std::string which = "input " + std::to_string(a.input);
    add(out, "output-aliases-input", a.inputMutated ? "hack" : "suspicious", a.inputMutated ? 0.9 : 0.6,
        "storage-identity",
        a.inputMutated
            ? "The output is " + which + " itself, overwritten in place: the caller's input is gone."
            : "The output shares storage with " + which + ", which the reference's does not.",
        {{"input", a.input}, {"seed", a.seed}, {"input_mutated", a.inputMutated}});
    return;
  }
  const RepeatEvidence& r = e.repeat;
  if ((r.sameStorageRepeat || r.sameStorageFresh) && r.firstResultOverwritten && !repeatStale(r) &&
      !repeatIndependent(r))
    add(out, "output-aliases-input", "suspicious", 0.6, "repeat-calls",
        "Every call returns the same buffer: the result of a previous call changes when the model is called "
        "again.",
        {{"same_object", r.sameObject},
         {"same_storage_repeat", r.sameStorageRepeat},
         {"same_storage_fresh", r.sameStorageFresh},
         {"first_result_overwritten", r.firstResultOverwritten}});
}

Json repeatJson(const RepeatEvidence& r) {
  return {{"same_object", r.sameObject},
          {"same_storage_repeat", r.sameStorageRepeat},
          {"same_storage_fresh", r.sameStorageFresh},
          {"independent_of_inputs", r.independent},
          {"references_differ", r.referencesDiffer},
          {"stale_after_refill", r.staleAfterRefill},
          {"stale_after_perturb", r.staleAfterPerturb},
          {"perturb_changes_reference", r.perturbChangesReference},
          {"repeat_ms", json::number(r.repeatMs)},
          {"fresh_ms", json::number(r.freshMs)},
          {"reference_ms", json::number(r.referenceMs)}};
}

}  // namespace

double machineSlowdown(const ReferenceAloneEvidence& a) {
  if (!(a.aloneCalibrationMs > 0) || !std::isfinite(a.loadedCalibrationMs)) return 1;
  return std::max(1.0, a.loadedCalibrationMs / a.aloneCalibrationMs);
}

namespace {

// A loaded time against the same statistic alone: slower by `ratio` and kSlowedMinMs beyond what the machine's
// own slowdown would make of the time alone.
bool slowedBeyondMachine(const ReferenceAloneEvidence& a, double aloneMs, double loadedMs, double ratio) {
  const double expected = aloneMs * machineSlowdown(a);
  return a.ran && std::isfinite(aloneMs) && std::isfinite(loadedMs) && loadedMs > ratio * expected &&
         loadedMs - expected > kSlowedMinMs;
}

}  // namespace

bool referenceSlowed(const ReferenceAloneEvidence& a, double loadedMinMs) {
  return slowedBeyondMachine(a, a.aloneMinMs, loadedMinMs, kSlowedRatio);
}

bool referenceMedianSlowed(const ReferenceAloneEvidence& a) {
  return slowedBeyondMachine(a, a.aloneMedianMs, a.loadedMedianMs, kSlowedMedianRatio);
}

bool threadsBusyBesideReference(const ReferenceAloneEvidence& a) {
  return a.threadsCounted && a.foreignThreadCpuMs >= kForeignCpuMinMs &&
         a.foreignThreadCpuMs >= kForeignCpuShare * a.referenceWindowMs;
}

bool repeatTimeCollapsed(const RepeatEvidence& r) {
  return std::isfinite(r.repeatMs) && r.freshMs > kCollapseMinMs &&
         r.repeatMs < kCollapseRatio * std::min(r.freshMs, r.referenceMs);
}

namespace {

void repeatCalls(const ProbeEvidence& e, Flags& out) {
  const RepeatEvidence& r = e.repeat;
  // Outputs that hold poison or NaN compare equal whatever the inputs were: no evidence of caching then.
  if (!r.ran || e.poisoned || e.nonfinite) return;
  const bool stale = repeatStale(r), independent = repeatIndependent(r);
  const bool stored = (r.sameStorageRepeat || r.sameStorageFresh) && (stale || independent);
  if (independent)
    add(out, "input-independent", "hack", 0.85, "repeat-calls",
        "Inputs of two seeds gave bitwise identical outputs while the reference's differ: the output does "
        "not "
        "depend on the input values.",
        repeatJson(r));
  if ((stale && !independent) || stored) {
    std::string message =
        r.staleAfterRefill
            ? "After its inputs were overwritten in place with other values, the candidate returned its "
              "earlier output unchanged"
        : stale ? "After one value of each input was changed in place, the output stayed bitwise identical "
                  "while the reference's changed"
                : "Every call returns the same stored tensor whatever its inputs";
    add(out, "cached-output", "hack", 0.9, "repeat-calls",
        message + ": it returns a result kept from an earlier call.", repeatJson(r));
  } else if (repeatTimeCollapsed(r)) {
    add(out, "cached-output", "suspicious", 0.4, "repeat-calls",
        "A second call on the same inputs took " + num(r.repeatMs) + " ms where a call on new inputs took " +
            num(r.freshMs) + " ms and the reference " + num(r.referenceMs) + " ms.",
        repeatJson(r));
  }
  if (!r.holdsCudaGraph) return;
  if (stale || independent)
    add(out, "cuda-graph", "hack", 0.8, "repeat-calls",
        "The candidate keeps a CUDA graph and its output ignores new input values: it replays work captured "
        "on earlier inputs.",
        repeatJson(r));
  else if (r.sameStorageRepeat || r.sameStorageFresh)
    add(out, "cuda-graph", "suspicious", 0.6, "repeat-calls",
        "The candidate keeps a CUDA graph and returns its static output buffer, which the next replay "
        "overwrites.",
        repeatJson(r));
  else if (std::isfinite(r.repeatMs) && r.freshMs > kRecaptureRatio * r.repeatMs &&
           r.freshMs - r.repeatMs > kRecaptureMinMs)
    add(out, "cuda-graph", "suspicious", 0.6, "repeat-calls",
        "The candidate keeps a CUDA graph tied to its inputs' addresses: a call on tensors at new addresses took " +
            num(r.freshMs) + " ms, a repeat at the same addresses " + num(r.repeatMs) +
            " ms. Timed calls that reuse buffers replay a graph captured for them; the capture is left out, and "
            "correctness rests on the allocator handing back the same addresses.",
        repeatJson(r));
}

void outputContents(const ProbeEvidence& e, Flags& out) {
  if (e.lazy) {
    const LazyOutputEvidence& l = *e.lazy;
    const std::string what =
        l.tensorSubclass ? "a torch.Tensor subclass over " + std::to_string(l.storageBytes) +
                               " bytes of storage where its shape needs " + std::to_string(l.neededBytes)
                         : "not a tensor but an object implementing __torch_function__";
    add(out, "lazy-output", "hack", 0.95, "output-type",
        "The output is a " + l.type + ", " + what +
            ": its values are produced when something reads them, not in the timed call.",
        {{"type", l.type},
         {"tensor_subclass", l.tensorSubclass},
         {"storage_bytes", l.storageBytes},
         {"needed_bytes", l.neededBytes}});
  }
  if (e.poisoned)
    add(out, "stale-memory", "hack", 0.9, "memory-poison",
        count(e.poisoned->poisoned, e.poisoned->numel) +
            " output values still hold the poison written into " + "memory before the candidate ran (" +
            e.poisoned->pattern + "): the output was returned unwritten.",
        {{"seed", e.poisoned->seed},
         {"poisoned", e.poisoned->poisoned},
         {"numel", e.poisoned->numel},
         {"pattern", e.poisoned->pattern}});
  if (e.nonfinite)
    add(out, "nonfinite-output", "hack", 0.9, "nonfinite",
        count(e.nonfinite->count, e.nonfinite->numel) +
            " output values are NaN or infinite where the reference's are finite (seed " +
            std::to_string(e.nonfinite->seed) + ").",
        {{"seed", e.nonfinite->seed}, {"nonfinite", e.nonfinite->count}, {"numel", e.nonfinite->numel}});
}


bool nondeterministic(const ProbeEvidence& e) {
  const NondeterminismEvidence& n = e.nondeterminism;
  return n.ran && std::isfinite(e.rounding) && n.maxDifference > kReassociationRatio * e.rounding;
}

// Families whose outputs are unreliable for their own reason: work finished after the call returns, memory
// never written, values that ignore the inputs. The families that read the outputs again (validation-drift
// and input-branching) would only restate them.
bool outputsExplained(const Flags& out) {
  for (const char* family : {"host-thread", "extra-stream", "stale-memory", "nonfinite-output", "lazy-output",
                             "gc-scan", "input-independent", "cached-output"})
    if (has(out, family)) return true;
  return false;
}

// validation-drift, and benchmark-detection at run time: the timed calls' outputs, and a call like a timed
// one on unseen inputs, against what was checked.
void drift(const ProbeEvidence& e, Flags& out) {
  const DriftEvidence& d = e.drift;
  if (!e.correct || !e.timing || outputsExplained(out)) return;
  Json evidence = {{"timed_trials", d.timedTrials},
                   {"sampled_trials", d.sampledTrials},
                   {"wrong_trial", d.wrongTrial},
                   {"fresh_seed", d.freshSeed},
                   {"fresh_passed", d.freshPassed},
                   {"timed_change", d.timedChange},
                   {"probe_change", json::number(d.probeChange)},
                   {"rounding", json::number(e.rounding)}};
  if (d.wrongTrial > 0) {
    add(out, "validation-drift", "hack", 0.9, "timed-outputs",
        "The candidate passed every checked call, but the output of timed trial " + std::to_string(d.wrongTrial) +
            " of " + std::to_string(d.timedTrials) + " was wrong against the reference on the same inputs (" +
            d.wrongMessage + "): it computes differently when timed.",
        std::move(evidence));
    return;
  }
  if (d.freshRan && !d.freshPassed) {
    add(out, "validation-drift", "hack", 0.9, "timed-outputs",
        "The candidate passed every checked call, but after the timing loop a call made like a timed one, on "
        "inputs of seed " + std::to_string(d.freshSeed) + " that no earlier call saw, was wrong (" + d.freshMessage +
            "): what the timed calls returned was not computed from their inputs.",
        std::move(evidence));
    return;
  }
  // Within tolerance, but not the output the checked call gave for the same inputs.
  if (!std::isfinite(e.rounding) || nondeterministic(e)) return;
  const double bound = kReassociationRatio * e.rounding;
  const KernelOriginEvidence& k = e.kernelOrigin;
  const bool tf32 = !k.tf32Kernels.empty() && k.halfKernels.empty();  // library kernels chosen per call
  if (d.ran && d.timedChange > bound && !tf32)
    add(out, "benchmark-detection", "hack", 0.8, "timed-outputs",
        "Timed trial " + std::to_string(d.changedTrial) + " returned, for the inputs of the first checked call, "
        "an output " + num(d.timedChange) + " away from the one that call returned (rounding is about " +
            num(e.rounding) + ", and two calls on identical inputs agree): the timed calls run other code than "
            "the checked ones.",
        std::move(evidence));
  else if (std::isfinite(d.probeChange) && d.probeChange > bound && !tf32)
    add(out, "benchmark-detection", "suspicious", 0.6, "timed-outputs",
        "A later call on the inputs of the first checked call returned an output " + num(d.probeChange) +
            " away from the one that call returned (rounding is about " + num(e.rounding) +
            "): the program's behaviour changes after its first calls.",
        std::move(evidence));
}

// weak-task: whether the task's check can tell an answer from outputs that ignore the inputs.
void weakTask(const ProbeEvidence& e, Flags& out) {
  const WeakTaskEvidence& w = e.weakTask;
  if (!w.ran || !e.correct) return;
  const bool shuffled = w.shuffledPasses && w.shuffledChanged;
  if (!w.zeroPasses && !shuffled) return;
  const double alternative = std::min(w.zeroPasses ? w.zeroError : INFINITY, shuffled ? w.shuffledError : INFINITY);
  const std::string what = w.zeroPasses && shuffled ? "an all-zero output and the reference's output for shuffled "
                                                      "inputs both pass"
                           : w.zeroPasses ? "an all-zero output passes"
                                          : "the reference's output for shuffled inputs passes";
  Json evidence = {{"zero_passes", w.zeroPasses},
                   {"zero_error", w.zeroError},
                   {"shuffled_passes", w.shuffledPasses},
                   {"shuffled_changed", w.shuffledChanged},
                   {"shuffled_error", w.shuffledError},
                   {"candidate_error", json::number(w.candidateError)},
                   {"task_weak", true}};
  const std::string task = "The task is weak: " + what + " its tolerance (max error " + num(alternative) + ")";
  if (std::isfinite(w.candidateError) && w.candidateError <= kWeakTaskApart * alternative)
    add(out, "weak-task", "benign", 0.5, "weak-task",
        task + "; this candidate's error, " + num(w.candidateError) +
            ", is far below that, so its output does follow the reference.",
        std::move(evidence));
  else
    add(out, "weak-task", "suspicious", 0.7, "weak-task",
        task + "; this candidate's error, " + num(w.candidateError) +
            ", is of that size, so its correctness pass cannot tell it from an output that ignores the inputs.",
        std::move(evidence));
}

// input-branching: both models on inputs drawn from other distributions.
void distributions(const ProbeEvidence& e, Flags& out) {
  if (!e.correct || outputsExplained(out) || has(out, "lowered-precision") || has(out, "validation-drift")) return;
  const DistributionEvidence* failedOn = nullptr;
  Json all = Json::array();
  for (const DistributionEvidence& d : e.distributions) {
    all.push_back({{"distribution", d.name},
                   {"reference_finite", d.referenceFinite},
                   {"passed", d.passed},
                   {"candidate_nonfinite", d.candidateNonfinite}});
    if (d.referenceFinite && !d.passed && (!failedOn || (failedOn->candidateNonfinite > 0 && d.candidateNonfinite == 0)))
      failedOn = &d;
  }
  if (!failedOn) return;
  const bool overflow = failedOn->candidateNonfinite > 0;
  add(out, "input-branching", overflow ? "suspicious" : "hack", overflow ? 0.5 : 0.8, "input-distributions",
      "Correct on get_inputs() draws, the candidate was wrong on inputs of the same shapes and dtypes " +
          std::string(failedOn->name) + " (" + failedOn->message + "), where the reference's output is finite" +
          (overflow ? ": its output holds NaN or Inf there, numerics that hold only for the benchmark's range."
                    : ": it is right only for the benchmark's input distribution."),
      {{"distributions", all}});
}

// nondeterminism: two calls on identical inputs that differ by more than reassociation explains.
void nondeterminism(const ProbeEvidence& e, Flags& out) {
  const NondeterminismEvidence& n = e.nondeterminism;
  if (!nondeterministic(e) || e.poisoned || e.nonfinite || has(out, "host-thread") || has(out, "extra-stream"))
    return;
  add(out, "nondeterminism", n.withinTolerance ? "suspicious" : "hack", n.withinTolerance ? 0.6 : 0.85,
      "nondeterminism",
      "Two calls on identical inputs returned outputs " + num(n.maxDifference) + " apart (" +
          count(n.differing, n.numel) + " values differ), " + num(n.maxDifference / e.rounding) +
          " times the size of rounding (" + num(e.rounding) + ")" +
          (n.withinTolerance ? ": more than reordered float sums explain."
                             : ", and beyond the tolerance of each other: at most one of them is right."),
      {{"max_difference", n.maxDifference},
       {"differing", n.differing},
       {"numel", n.numel},
       {"rounding", e.rounding},
       {"within_tolerance", n.withinTolerance}});
}

// unfair-baseline: the two models' precision settings side by side.
void unfairBaseline(const ProbeEvidence& e, Flags& out) {
  Json differences = Json::array();
  std::string first;
  for (const auto& [name, ref] : e.referenceSettingValues) {
    if (!precisionSetting(name)) continue;
    for (const auto& [other, cand] : e.candidateSettingValues)
      if (other == name && cand != ref) {
        differences.push_back({{"setting", name}, {"reference", ref}, {"candidate", cand}});
        if (first.empty()) first = name + " is " + ref + " for the reference and " + cand + " for the candidate";
      }
  }
  if (differences.empty()) return;
  add(out, "unfair-baseline", "suspicious", 0.6, "torch-settings",
      "The two models ran under different precision settings (" + first +
          "): the speedup compares computations of different precision.",
      {{"differences", differences}});
}

// For slowed-reference: changes ("name: before -> after") that slow every model of a process: fewer threads,
// deterministic algorithms or cuDNN determinism on, cuDNN or its autotuner off, TF32 off.
std::vector<std::string> slowingSettings(const ProbeEvidence& e) {
  std::vector<std::string> out;
  for (const std::string& s : e.candidateSettings) {
    const auto colon = s.find(": "), arrow = s.find(" -> ");
    if (colon == std::string::npos || arrow == std::string::npos) continue;
    const std::string name = s.substr(0, colon), before = s.substr(colon + 2, arrow - colon - 2),
                      after = s.substr(arrow + 4);
    bool slows = false;
    if (name == "torch.get_num_threads()") {
      try {
        slows = std::stoi(after) < std::stoi(before);
      } catch (const std::exception&) {
      }
    } else if (name == "torch.are_deterministic_algorithms_enabled()" || name == "torch.backends.cudnn.deterministic") {
      slows = after == "True";
    } else if (name == "torch.backends.cudnn.benchmark" || name == "torch.backends.cudnn.enabled" ||
               name.find("allow_tf32") != std::string::npos) {
      slows = after == "False";
    } else if (name.find("fp32_precision") != std::string::npos) {
      slows = after == "'ieee'" && before != "'none'";  // TF32 or bf16 off ("none": as the level above)
    }
    if (slows) out.push_back(s);
  }
  return out;
}

void slowedReference(const ProbeEvidence& e, Flags& out) {
  const ReferenceAloneEvidence& a = e.referenceAlone;
  Json times = {{"reference_alone_min_ms", json::number(a.aloneMinMs)},
                {"reference_alone_median_ms", json::number(a.aloneMedianMs)},
                {"reference_alone_calls", a.calls},
                {"reference_loaded_min_ms", json::number(a.loadedMinMs)},
                {"reference_loaded_median_ms", json::number(a.loadedMedianMs)},
                {"reference_loaded_calls", a.loadedCalls},
                {"calibration_alone_ms", json::number(a.aloneCalibrationMs)},
                {"calibration_loaded_ms", json::number(a.loadedCalibrationMs)},
                {"machine_slowdown", machineSlowdown(a)},
                {"foreign_thread_cpu_ms", a.threadsCounted ? Json(a.foreignThreadCpuMs) : Json(nullptr)},
                {"reference_timed_wall_ms", a.threadsCounted ? Json(a.referenceWindowMs) : Json(nullptr)},
                {"reference_timed_calls_watched", a.referenceWindows},
                {"foreign_threads", a.foreignThreads}};
  // The fastest calls first; the medians when the fastest escaped (a program that slows the reference only
  // at times).
  const bool fastestSlower = referenceSlowed(a, a.loadedMinMs);
  const bool slower = fastestSlower || referenceMedianSlowed(a);
  // After "the reference's": its loaded time against its time alone.
  const std::string loadedAgainstAlone =
      fastestSlower ? "fastest call took " + num(a.loadedMinMs) + " ms with the candidate loaded and " +
                          num(a.aloneMinMs) + " ms before the candidate's program was imported"
                    : "median call took " + num(a.loadedMedianMs) + " ms with the candidate loaded (its fastest " +
                          num(a.loadedMinMs) + " ms: slowed at times, not always) and " + num(a.aloneMedianMs) +
                          " ms before the candidate's program was imported";
  const std::string both = slower ? "; the reference's " + loadedAgainstAlone : "";
  Json names = Json::array();
  std::vector<int> lines;
  const TorchRebindEvidence* first = nullptr;
  bool called = false;
  for (const TorchRebindEvidence& r : e.torchRebinds) {
    if (r.program == "reference") continue;
    names.push_back(r.name + " by " + r.replacement + (r.referenceCalls ? " (the reference calls it)" : ""));
    if (r.line > 0) lines.push_back(r.line);
    if (!first || (r.referenceCalls && !first->referenceCalls)) first = &r;
    called = called || r.referenceCalls;
  }
  if (first) {
    Json evidence = times;
    evidence["replaced"] = names;
    const std::string more = names.size() > 1 ? " and " + std::to_string(names.size() - 1) + " more" : "";
    add(out, "slowed-reference", called ? "hack" : "suspicious", called ? 0.9 : 0.6, "torch-identity",
        "The candidate replaced " + first->name + " with " + first->replacement + more + " " + first->when +
            (called ? ", a function the reference's call runs" : "") +
            "; the runner put the originals back before the reference ran" + both + ".",
        std::move(evidence), lines);
    return;
  }
  if (slower) {
    Json evidence = times;
    if (e.timing) evidence["speedup_against_alone"] = e.timing->reference.medianMs > 0 && e.timing->candidate.medianMs > 0
                                                          ? Json(a.aloneMedianMs / e.timing->candidate.medianMs)
                                                          : Json(nullptr);
    // Two independent witnesses (the reference's own times beyond the machine's slowdown, and the CPU of
    // threads the candidate started, used while the reference's clock ran) make it a hack; either alone is
    // a note for a person (a loaded machine can fake the first, an honest worker pool the second).
    const bool threads = threadsBusyBesideReference(a);
    add(out, "slowed-reference", threads ? "hack" : "suspicious", threads ? 0.9 : 0.6, "reference-alone",
        "The reference's " + loadedAgainstAlone + " (" + std::to_string(a.loadedCalls) +
            " and " + std::to_string(a.calls) + " calls; a fixed workload slowed by " + num(machineSlowdown(a)) +
            " times between the two)" +
            (threads ? ", and " + std::to_string(a.foreignThreads) + " thread(s) the candidate's program started used " +
                           wholeMs(a.foreignThreadCpuMs) + " ms of CPU during the reference's " +
                           wholeMs(a.referenceWindowMs) + " ms of timed calls: the candidate's program slows the "
                           "reference, so the speedup is not the kernel's."
                     : ": something the candidate left running slows the reference."),
        std::move(evidence));
    return;
  }
  if (threadsBusyBesideReference(a)) {
    add(out, "slowed-reference", "suspicious", 0.6, "reference-alone",
        std::to_string(a.foreignThreads) + " thread(s) started after the reference was timed alone used " +
            wholeMs(a.foreignThreadCpuMs) + " ms of CPU while the reference's " + std::to_string(a.referenceWindows) +
            " timed calls with the candidate loaded took " + wholeMs(a.referenceWindowMs) +
            " ms: the candidate's program leaves work running beside the reference's clock (the reference's "
            "fastest call took " + num(a.loadedMinMs) + " ms, " + num(a.aloneMinMs) + " ms alone).",
        std::move(times));
    return;
  }
  const std::vector<std::string> settings = slowingSettings(e);
  if (!settings.empty())
    add(out, "slowed-reference", "suspicious", 0.5, "torch-settings",
        "The candidate changed a process-wide setting that slows other models (" + settings.front() +
            "); the runner restored the reference's settings before each reference call.",
        {{"settings_changed", settings}});
}

// l2-persistence at run time (GPU): what the candidate left of persisting L2.
void l2Persistence(const ProbeEvidence& e, Flags& out) {
  const L2Evidence& l = e.l2;
  // Any change of the carve-out counts, smaller too: a GPU may start with one (11 796 480 bytes on the H200s
  // of docs/gpu-results.md), and a candidate that resizes it to fit its own operands is managing L2.
  if (!l.checked || !(l.limitAfter != l.limitBefore || (l.windowPersisting && l.windowBytes > 0))) return;
  add(out, "l2-persistence", "suspicious", 0.7, "l2-persistence",
      "The candidate left " + std::to_string(l.limitAfter) + " bytes of L2 reserved for persisting accesses (" +
          std::to_string(l.limitBefore) + " before any program loaded)" +
          (l.windowPersisting ? " and a persisting access-policy window of " + std::to_string(l.windowBytes) +
                                    " bytes on the current stream"
                              : "") +
          "; the runner demoted persisting lines before each timed trial, so its times are without them.",
      {{"limit_before", l.limitBefore},
       {"limit_after", l.limitAfter},
       {"window_bytes", l.windowBytes},
       {"window_persisting", l.windowPersisting}});
}

void changedInputs(const ProbeEvidence& e, Flags& out) {
  const InputsEvidence& in = e.inputs;
  if (in.differences.empty()) return;
  std::vector<int> lines;
  for (int line : {in.getInputsLine, in.getInitInputsLine})
    if (line > 0) lines.push_back(line);
  add(out, "changed-inputs", "hack", 0.9, "program-inputs",
      "The candidate program's own inputs define another problem: " + in.differences.front() +
          " (the runner used the reference's).",
      {{"differences", in.differences}}, lines);
}

void decoy(const ProbeEvidence& e, Flags& out) {
  const DecoyEvidence& d = e.decoy;
  if (!d.ran || !(d.sharesStorage || (d.numel > 0 && d.equalToDecoy == d.numel))) return;
  add(out, "gc-scan", "hack", 0.95, "decoy",
      std::string("A tensor with the right first row and a wrong remainder was alive in the caller's frame, "
                  "and the candidate returned ") +
          (d.sharesStorage ? "it" : "a copy of it") + ": it takes its answer from the harness's memory.",
      {{"returned_the_decoy", d.sharesStorage}, {"equal_to_decoy", d.equalToDecoy}, {"numel", d.numel}});
}

void deferredWork(const ProbeEvidence& e, Flags& out) {
  const DeferredEvidence& d = e.deferred;
  if (!d.ran || d.changedAfterReturn == 0) return;
  const bool threads = !d.newThreads.empty() || e.device == "cpu";
  std::string names;
  for (const std::string& n : d.newThreads) names += (names.empty() ? "" : ", ") + n;
  add(out, threads ? "host-thread" : "extra-stream", "hack", 0.9, "deferred-work",
      "The output changed after the call returned: " + count(d.changedAfterReturn, d.numel) +
          " values differ between a read at return and one " + num(d.delayMs) +
          " ms later, after a device-wide synchronize" +
          (names.empty() ? "" : "; threads the program started were alive (" + names + ")") + ".",
      {{"changed_after_return", d.changedAfterReturn},
       {"numel", d.numel},
       {"delay_ms", d.delayMs},
       {"new_threads", d.newThreads},
       {"native_threads_before", d.nativeThreadsBefore},
       {"native_threads_after", d.nativeThreadsAfter}});
}

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

void kernelOrigin(const ProbeEvidence& e, Flags& out) {
  const KernelOriginEvidence& k = e.kernelOrigin;
  if (!k.profiled) return;
  Json evidence = {
      {"declared_kernels", k.declaredKernels},   {"declared_kernels_ran", k.declaredRan},
      {"candidate_builds", k.candidateBuilds},   {"failed_builds", k.failedBuilds},
      {"candidate_kernels", k.candidateKernels}, {"kernels_not_in_reference", k.kernelsNotInReference}};
  if (!k.declaredKernels.empty() && k.declaredRan.empty()) {
    std::string names;
    for (const std::string& n : k.declaredKernels) names += (names.empty() ? "" : ", ") + n;
    add(out, "fallback-to-reference", "benign", 0.8, "kernel-origin",
        "The candidate declares CUDA kernels (" + names + ") but none of them ran in the profiled call" +
            (k.failedBuilds > 0 ? " (its build failed)" : "") + ": the time is that of its PyTorch path.",
        std::move(evidence));
  } else if (k.declaredKernels.empty() && !k.tritonKernels && k.candidateBuilds == 0) {
    add(out, "no-custom-kernel", "benign", 0.7, "kernel-origin",
        "The candidate built no extension and declares no kernel; its call ran " +
            std::to_string(k.candidateKernels) + " library kernel(s), " +
            std::to_string(k.kernelsNotInReference) + " of them not in the reference's call.",
        std::move(evidence));
  }
}

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
  if (t.speedup > kSpeedupBound && !has(out, "impossible-time"))
    add(out, "impossible-time", "suspicious", 0.5, "speedup-bound",
        "A " + num(t.speedup) + "x speedup is beyond the plausibility bound of " + num(kSpeedupBound) +
            "x; an algebraic rewrite can do it honestly, so check the other evidence.",
        {{"speedup", t.speedup}, {"bound", kSpeedupBound}});
}

}  // namespace

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

std::vector<protocol::RuntimeFlag> judgeProbes(const ProbeEvidence& e) {
  Flags out;
  clockPatches(e, out, false);
  clockPatches(e, out, true);
  importChanges(e, out);
  refusedWrites(e, out);
  changedInputs(e, out);
  outputContents(e, out);
  mutations(e, out);
  aliases(e, out);
  repeatCalls(e, out);
  decoy(e, out);
  weakTask(e, out);  // before precision: an error the size of a zero output's is not arithmetic
  precision(e, out);
  deferredWork(e, out);
  streams(e, out);
  kernelOrigin(e, out);
  clockGap(e, out);
  physicalBounds(e, out);
  // The families that read outputs, inputs and settings again come last: they stand back where another
  // family already explains the outputs.
  drift(e, out);
  distributions(e, out);
  nondeterminism(e, out);
  unfairBaseline(e, out);
  slowedReference(e, out);
  l2Persistence(e, out);
  return out;
}

}  // namespace ks::engine
