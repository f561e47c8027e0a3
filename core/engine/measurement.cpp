#include "core/engine/measurement.h"

#include <c10/core/GradMode.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <variant>

#include "core/engine/cpu_pin.h"
#include "core/engine/gpu_share.h"
#include "core/engine/kernel_profile.h"
#include "core/engine/memory_poison.h"
#include "core/engine/output_compare.h"
#include "core/engine/phase_deadlines.h"
#include "core/engine/tensor_evidence.h"
#include "core/engine/timed_call.h"
#include "core/engine/trial_clock.h"
#include "core/engine/trial_stats.h"
#include "core/model/seconds_since.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

using protocol::ErrorInfo;
using protocol::Phase;

// Runs `body`, turning what a model call throws into a `runtime` error that names the model.
template <class F>
auto guarded(const ModelUnderTest& model, const ModelPair& pair, Phase phase, const c10::Device& device,
             F&& body) -> Outcome<decltype(body())> {
  ErrorInfo info;
  try {
    return body();
  } catch (py::error_already_set& e) {
    info = pairError(pair, e, protocol::ErrorKind::Runtime);
  } catch (const c10::Error& e) {
    info.kind = protocol::ErrorKind::Runtime;
    info.message = e.what_without_backtrace();
  } catch (const std::exception& e) {
    info.kind = protocol::ErrorKind::Runtime;
    info.message = e.what();
  }
  if (info.program.empty()) info.program = model.role;
  info.phase = protocol::phaseName(phase);
  if (!deviceUsable(device)) {
    info.runnerExits = true;
    info.message += " (the CUDA context is lost: the runner exits)";
  }
  return info;
}

struct CallResult {
  py::object output;
  double seconds = 0;
};

Outcome<CallResult> callChecked(const ModelUnderTest& model, const ModelPair& pair, const ModelArgs& args,
                                Phase phase, const c10::Device& device) {
  return guarded(model, pair, phase, device, [&] {
    model.enter();
    const auto start = std::chrono::steady_clock::now();
    py::object out = model.callable(*pythonArgs(args));
    synchronizeDevice(device);
    const double seconds = secondsSince(start);  // without a wait for the GPU share lock: it sets trial counts
    gpu_share::syncPoint();
    return CallResult{std::move(out), seconds};
  });
}

struct Correct {
  protocol::Correctness correctness;
  double pairSeconds = 0;         // slowest reference + candidate call (deadlines)
  double typicalPairSeconds = 0;  // the median seed's (trial budget: the first call may build or tune)
};

Outcome<Correct> checkCorrectness(ModelPair& pair, const MeasureSettings& s, PhaseReporter& reporter,
                                  RuntimeProbes& probes) {
  Correct out;
  std::vector<double> pairTimes;
  protocol::Correctness& c = out.correctness;
  c.passed = true;
  reporter.enter(Phase::Correctness, kCorrectnessDeadlineS);
  for (int i = 0; i < s.seeds; ++i) {
    const std::int64_t seed = s.seed + i;
    Outcome<ModelArgs> inputs = pair.inputs(seed);
    if (auto* e = failed(inputs)) return *e;
    const ModelArgs& original = std::get<ModelArgs>(inputs);

    const ModelArgs refArgs = cloneArgs(original);
    const ModelUnderTest& checker = pair.checkReference ? *pair.checkReference : pair.reference;
    Outcome<CallResult> ref = callChecked(checker, pair, refArgs, Phase::Correctness, s.device);
    if (auto* e = failed(ref)) return *e;
    // The reference's output is kept as copies no Python object refers to, and the object it returned is
    // released: while the candidate runs, nothing in the interpreter holds the answer (docs/hacks.md,
    // gc-scan) and the memory it used is free to be poisoned.
    std::vector<at::Tensor> refOut;
    double refSeconds = 0;
    {
      const CallResult called = std::move(std::get<CallResult>(ref));
      refSeconds = called.seconds;
      auto refTensors = outputTensors(called.output, s.device);
      if (auto* why = std::get_if<std::string>(&refTensors)) {
        ErrorInfo e;
        e.kind = protocol::ErrorKind::Runtime;
        e.program = "reference";
        e.phase = "correctness";
        e.message = "the reference's output cannot be checked: " + *why;
        return e;
      }
      const auto& returned = std::get<std::vector<at::Tensor>>(refTensors);
      probes.referenceCalled(original, refArgs, returned);
      refOut = detachedCopies(returned);
    }
    for (int index : mutatedArgs(original, refArgs)) c.mutations.push_back({"reference", index, seed});
    add(c.poison, poisonFreedMemory(s.device));

    const ModelArgs candArgs = cloneArgs(original);
    Outcome<CallResult> cand = [&] {
      const CpuJunkFill fill(s.device);
      return callChecked(pair.candidate, pair, candArgs, Phase::Correctness, s.device);
    }();
    if (auto* e = failed(cand)) return *e;
    const py::object& candOutput = std::get<CallResult>(cand).output;
    for (int index : mutatedArgs(original, candArgs)) {
      c.mutations.push_back({"candidate", index, seed});
      c.inputsMutated = true;
    }
    probes.candidateCalled(seed, original, candArgs, candOutput, refOut, s.atol, s.rtol);
    if (i == 0)
      for (const at::Tensor& t : refOut)
        c.outputs.push_back(
            {dtypeName(t.scalar_type()), std::vector<std::int64_t>(t.sizes().begin(), t.sizes().end())});
    auto candTensors = outputTensors(candOutput, s.device);
    protocol::SeedCheck check;
    if (auto* why = std::get_if<std::string>(&candTensors)) {
      const Tolerance tol = toleranceFor(refOut.front().scalar_type(), s.atol, s.rtol);
      check.atol = tol.atol;
      check.rtol = tol.rtol;
      check.message = *why;
    } else {
      check = compareOutputs(refOut, std::get<std::vector<at::Tensor>>(candTensors), s.atol, s.rtol);
    }
    check.seed = seed;
    c.passed = c.passed && check.passed;
    c.seeds.push_back(std::move(check));
    pairTimes.push_back(refSeconds + std::get<CallResult>(cand).seconds);
    out.pairSeconds = std::max(out.pairSeconds, pairTimes.back());
    reporter.progress(i + 1, s.seeds);
  }
  if (!pairTimes.empty()) {
    std::nth_element(pairTimes.begin(), pairTimes.begin() + pairTimes.size() / 2, pairTimes.end());
    out.typicalPairSeconds = pairTimes[pairTimes.size() / 2];
  }
  return out;
}

// The timed candidate calls whose outputs are checked after the loop (validation-drift): the first, the last
// and up to kDriftSamples in all, evenly spread.
constexpr int kDriftSamples = 5;
bool sampledTrial(int trial, int trials) {
  if (trials <= kDriftSamples) return true;
  for (int k = 0; k < kDriftSamples; ++k)
    if (trial == 1 + k * (trials - 1) / (kDriftSamples - 1)) return true;
  return false;
}
// More reference calls timed after the loop (slowed-reference), at most this many: up to as many calls as the
// reference was timed alone (with one or two trials, a program's thread that slows the reference can miss
// them: on the loaded 2-core machine tests/hacks/slowed-reference/idle_warmer_thread.py left 2 of 12 single
// trials untouched, and no witness saw anything), and more while its fastest call looks slow against its time
// alone (one slow call on a loaded machine must not make the verdict).
constexpr int kSlowedConfirmCalls = 5;

Outcome<protocol::Timing> timeTrials(ModelPair& pair, const MeasureSettings& s, PhaseReporter& reporter,
                                     double pairSeconds, double typicalPairSeconds, RuntimeProbes& probes) {
  const int trials = trialCount(s.trials, s.trialsFitBudget, typicalPairSeconds);
  // More pairs for the moving floor (measureMovingFloor: its reads and writes at two moments, each less than
  // a call that reads and writes the same bytes).
  reporter.enter(Phase::Timing,
                 scaledDeadline(s.warmup + trials + kSlowedConfirmCalls + 2 + 2 * kMovingFloorRepetitions, pairSeconds));
  Outcome<ModelArgs> inputs = pair.inputs(s.seed);
  if (auto* e = failed(inputs)) return *e;
  const ModelArgs& original = std::get<ModelArgs>(inputs);
  std::unique_ptr<TrialClock> clock = clockFor(s.device);
  CacheFlush flush(s.device);
  std::mt19937_64 order(static_cast<std::uint64_t>(s.seed));
  std::vector<TrialTime> times[2];
  const ModelUnderTest* models[2] = {&pair.reference, &pair.candidate};
  int timedCandidateCalls = 0;

  auto run = [&](int which, bool timed) -> std::optional<ErrorInfo> {
    const ModelUnderTest& model = *models[which];
    Outcome<bool> done = guarded(model, pair, Phase::Timing, s.device, [&] {
      const ModelArgs args = cloneArgs(original);
      const bool referenceTrial = timed && which == 0;
      if (referenceTrial) probes.referenceCallStarting();
      TimedCall call = timedCall(model, pythonArgs(args), *clock, flush, s.device);
      if (referenceTrial) probes.referenceCallEnded();
      if (timed) times[which].push_back(call.time);
      if (timed && which == 1 && sampledTrial(++timedCandidateCalls, trials))
        probes.timedOutput(timedCandidateCalls, call.output);  // after the clock stopped: a copy, checked later
      return true;
    });
    if (auto* e = failed(done)) return *e;
    return std::nullopt;
  };
  const int total = s.warmup + trials;
  const int step = std::max(1, total / 10);
  const CpuPin pin(s.cpuPin);
  probes.measureMovingFloor(*clock, flush);  // before the first progress event: no work between timed calls
  for (int i = 0; i < total; ++i) {
    const int first = static_cast<int>(order() & 1);
    for (int which : {first, 1 - first})
      if (auto e = run(which, i >= s.warmup)) return *e;
    if ((i + 1) % step == 0 || i + 1 == total) reporter.progress(i + 1, total);
  }
  probes.checkTimedOutputs();  // after the last progress event: no work between timed calls but the calls
  probes.measureMovingFloor(*clock, flush);
  protocol::Timing t;
  t.clock = clock->name();
  t.trials = trials;
  t.warmup = s.warmup;
  t.orderSeed = s.seed;
  t.cacheFlushBytes = flush.bytes();
  if (pin.cpu()) {
    t.cpuPin = s.cpuPin;
    t.pinnedCpu = pin.cpu();
  }
  t.reference = summarizeTrials(times[0]);
  t.candidate = summarizeTrials(times[1]);
  t.speedup = t.reference.medianMs / t.candidate.medianMs;
  t.hostSpeedup = t.reference.hostMedianMs / t.candidate.hostMedianMs;
  t.speedupCi95 = speedupInterval(t.reference.trialsMs, t.candidate.trialsMs, static_cast<std::uint64_t>(s.seed));

  // The reference with the candidate loaded, against its time before the candidate's program was imported.
  double loadedMin = t.reference.minMs;
  int loadedCalls = trials;
  for (int k = 0; k < kSlowedConfirmCalls &&
                  (loadedCalls < probes.referenceAloneCalls() || probes.referenceLooksSlowed(loadedMin));
       ++k) {
    Outcome<bool> done = guarded(pair.reference, pair, Phase::Timing, s.device, [&] {
      const ModelArgs args = cloneArgs(original);
      probes.referenceCallStarting();
      const TimedCall call = timedCall(pair.reference, pythonArgs(args), *clock, flush, s.device);
      probes.referenceCallEnded();
      loadedMin = std::min(loadedMin, call.time.officialMs);
      ++loadedCalls;
      return true;
    });
    if (auto* e = failed(done)) return *e;
  }
  probes.referenceLoaded(loadedMin, t.reference.medianMs, loadedCalls);

  // A call made like a timed one on inputs of a seed no earlier call saw (correctness used seed ... seed +
  // seeds - 1, the probes seed and seed + 1), then the reference on the same inputs (after the candidate, so
  // the reference's freed output cannot be what an uninitialised candidate output holds).
  const std::int64_t freshSeed = s.seed + std::max(s.seeds, 2);
  Outcome<ModelArgs> fresh = pair.inputs(freshSeed);
  if (auto* e = failed(fresh)) return *e;
  const ModelArgs& freshInputs = std::get<ModelArgs>(fresh);
  using CandidateOutput = std::variant<std::vector<at::Tensor>, std::string>;
  Outcome<CandidateOutput> candOut = guarded(pair.candidate, pair, Phase::Timing, s.device, [&]() -> CandidateOutput {
    const ModelArgs args = cloneArgs(freshInputs);
    TimedCall call = timedCall(pair.candidate, pythonArgs(args), *clock, flush, s.device);
    auto tensors = outputTensors(call.output, s.device);
    if (auto* why = std::get_if<std::string>(&tensors)) return *why;
    return detachedCopies(std::get<std::vector<at::Tensor>>(tensors));
  });
  if (auto* e = failed(candOut)) return *e;
  Outcome<CallResult> refOut =
      callChecked(pair.checkReference ? *pair.checkReference : pair.reference, pair, cloneArgs(freshInputs),
                  Phase::Timing, s.device);
  if (auto* e = failed(refOut)) return *e;
  auto refTensors = outputTensors(std::get<CallResult>(refOut).output, s.device);
  if (auto* why = std::get_if<std::string>(&refTensors)) return ErrorInfo{protocol::ErrorKind::Runtime, *why};
  const CandidateOutput& cand = std::get<CandidateOutput>(candOut);
  protocol::SeedCheck check;
  if (auto* why = std::get_if<std::string>(&cand))
    check.message = *why;
  else
    check = compareOutputs(std::get<std::vector<at::Tensor>>(refTensors), std::get<std::vector<at::Tensor>>(cand),
                           s.atol, s.rtol);
  check.seed = freshSeed;
  probes.freshAfterTiming(freshSeed, check);
  probes.timed(t, timedCandidateCalls);
  return t;
}

// A profiler failure is a note, not a failed request: both models already ran many times.
void profile(ModelPair& pair, const MeasureSettings& s, PhaseReporter& reporter, double pairSeconds,
             Measurement& m, RuntimeProbes& probes) {
  reporter.enter(Phase::Profile, scaledDeadline(2, pairSeconds));
  Outcome<ModelArgs> inputs = pair.inputs(s.seed);
  if (auto* e = failed(inputs)) {
    m.kernelsNote = "not profiled: " + e->message;
    return;
  }
  try {
    ChromeTrace traces[2];
    int i = 0;
    for (const ModelUnderTest* model : {&pair.reference, &pair.candidate}) {
      const ModelArgs args = cloneArgs(std::get<ModelArgs>(inputs));
      const py::tuple callArgs = pythonArgs(args);
      model->enter();
      ProfiledCall called = profileKernels([&] { model->callable(*callArgs); }, model->role,
                                           s.scratch / (model->role + ".trace.json"));
      for (auto& k : called.kernels) m.kernels.push_back(std::move(k));
      traces[i++] = std::move(called.trace);
    }
    if (m.timing) {
      m.timing->reference.kernelMs = kernelBusyMs(traces[0]);
      m.timing->candidate.kernelMs = kernelBusyMs(traces[1]);
    }
    probes.profiled(traces[0], traces[1]);
  } catch (py::error_already_set& e) {
    m.kernels.clear();
    m.kernelsNote = std::string("the profiler failed: ") + e.what();
  } catch (const std::exception& e) {
    m.kernels.clear();
    m.kernelsNote = std::string("the profiler failed: ") + e.what();
  }
  if (m.kernels.empty() && m.kernelsNote.empty()) m.kernelsNote = "the profiler saw no GPU kernel";
}

}  // namespace

int trialCount(int trials, bool fitBudget, double pairSeconds) {
  if (!fitBudget || !(pairSeconds > 0)) return trials;
  const double fit = kTimingBudgetS / pairSeconds;
  return fit >= trials ? trials : std::max(std::min(kMinBudgetTrials, trials), static_cast<int>(fit));
}

Outcome<bool> callCandidateOnce(ModelPair& pair, const c10::Device& device, std::int64_t seed,
                                PhaseReporter& reporter) {
  reporter.enter(Phase::Correctness, kFirstCallDeadlineS);
  Outcome<ModelArgs> inputs = pair.inputs(seed);
  if (auto* e = failed(inputs)) return *e;
  Outcome<CallResult> called =
      callChecked(pair.candidate, pair, std::get<ModelArgs>(inputs), Phase::Correctness, device);
  if (auto* e = failed(called)) return *e;
  return true;
}

Outcome<Measurement> measure(ModelPair& pair, const MeasureSettings& s, PhaseReporter& reporter,
                             RuntimeProbes& probes) {
  c10::NoGradGuard noGrad;
  Measurement m;
  Outcome<Correct> correct = checkCorrectness(pair, s, reporter, probes);
  if (auto* e = failed(correct)) return *e;
  m.correctness = std::move(std::get<Correct>(correct).correctness);
  const double pairSeconds = std::get<Correct>(correct).pairSeconds;
  if (auto e = probes.run(pair, s.seed, m.correctness.passed, reporter, pairSeconds)) return *e;
  if (!m.correctness.passed) {
    m.timingNote = "not timed: the candidate is incorrect";
    m.kernelsNote = "not profiled: the candidate is incorrect";
    probes.notProfiled(m.kernelsNote);
    return m;
  }
  // Timing and profile with the GPU to this runner alone, when runners share it (gpu_share.h).
  const gpu_share::Exclusive alone;
  Outcome<protocol::Timing> timing =
      timeTrials(pair, s, reporter, pairSeconds, std::get<Correct>(correct).typicalPairSeconds, probes);
  if (auto* e = failed(timing)) return *e;
  m.timing = std::get<protocol::Timing>(timing);
  if (!s.device.is_cuda())
    m.kernelsNote = "not profiled: no GPU kernels on cpu";
  else if (!s.profile)
    m.kernelsNote = "not profiled: profile_kernels is off";
  else
    profile(pair, s, reporter, pairSeconds, m, probes);
  if (!m.kernelsNote.empty()) probes.notProfiled(m.kernelsNote);
  return m;
}

}  // namespace ks::engine
