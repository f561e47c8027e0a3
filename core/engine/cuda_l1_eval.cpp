#include "core/engine/cuda_l1_eval.h"

#include <pybind11/functional.h>

#include <algorithm>

#include "core/engine/cuda_l1_method.h"
#include "core/engine/gpu_share.h"
#include "core/engine/phase_deadlines.h"
#include "core/engine/trial_clock.h"
#include "core/stats/cuda_l1_stats.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

// CUDA-L1's constants (eval_cuda.py): allclose's tolerances, the base seed, warm-up calls, the early stop.
constexpr double kCudaL1Tolerance = 1e-2;
constexpr std::int64_t kCudaL1Seed = 42;
constexpr int kCudaL1Warmup = 3;
constexpr double kCudaL1StopBelow = 0.3;

std::optional<CudaL1Programs> programsOf(const ModelPair& pair, const std::string& candidateCode) {
  if (pair.modules.size() < 2) return std::nullopt;
  Outcome<py::object> model = pair.modules[0].global("Model"), getInputs = pair.modules[0].global("get_inputs"),
                      modelNew = pair.modules[1].global("ModelNew");
  if (failed(model) || failed(getInputs) || failed(modelNew) || !pair.referenceGetInitInputs) return std::nullopt;
  return CudaL1Programs{std::get<py::object>(model), std::get<py::object>(modelNew), pair.referenceGetInitInputs,
                        std::get<py::object>(getInputs), candidateCode.find("cuda.Stream") != std::string::npos};
}

// A Python error of the method: the note it leaves; a lost device ends the runner instead.
std::string noteFor(py::error_already_set& e, const c10::Device& device, const char* what) {
  if (!deviceUsable(device)) throw;
  return std::string(what) + ": " + e.what();
}

}  // namespace

protocol::CudaL1Eval evaluateCudaL1(ModelPair& pair, const std::string& candidateCode, const c10::Device& device,
                                    const protocol::Options::CudaL1EvalOptions& options, std::uint64_t orderSeed,
                                    const std::optional<protocol::Timing>& timing, PhaseReporter& reporter) {
  protocol::CudaL1Eval out;
  out.globalTrials = options.globalTrials;
  out.perfTrials = options.perfTrials;
  out.warmup = kCudaL1Warmup;
  out.check.atol = out.check.rtol = kCudaL1Tolerance;
  const std::optional<CudaL1Programs> programs = programsOf(pair, candidateCode);
  if (!programs) {
    out.note = "not run: the reference's Model, get_inputs or get_init_inputs, or the candidate's ModelNew, is missing";
    return out;
  }
  const std::string dev = device.str();
  // KernelScope's own time of one pair of calls, where it timed them: the deadlines scale with it.
  const double pairSeconds =
      timing ? (timing->reference.hostMedianMs + timing->candidate.hostMedianMs) / 1000.0 : 0.0;

  // Both programs' calls under the settings the candidate left, as in CUDA-L1's one process.
  pair.candidate.enter();
  // One phase for the check and the timing: its own progress events, apart from KernelScope's timing.
  reporter.enter(protocol::Phase::SeedMethod,
                 std::max(kCorrectnessDeadlineS, scaledDeadline(2 * options.correctTrials + 3, pairSeconds)));
  CudaL1CheckOutcome check;
  try {
    check = runCudaL1Check(*programs, dev, {options.correctTrials, kCudaL1Seed, kCudaL1Tolerance, kCudaL1Tolerance});
  } catch (py::error_already_set& e) {
    out.note = noteFor(e, device, "CUDA-L1's check could not run");
    return out;
  }
  out.check.trials = check.trials;
  out.check.passed = check.passed;
  out.check.ok = check.ok;
  out.check.message = check.message;
  out.check.failedTrial = check.failedTrial;
  out.check.failedSeed = check.failedSeed;
  out.check.maxDiff = check.maxDiff;
  out.check.avgDiff = check.avgDiff;
  out.check.worstShare = check.worstShare;
  if (!check.ok) {
    out.note = "not timed: CUDA-L1's check failed (" + check.message + ")";
    return out;
  }

  const int runs = options.flushedTwin && device.is_cuda() ? 2 : 1;
  // A global trial builds both models and calls them about 2 (warm-up + trials) + 1 times; the check built
  // them once and called them 2 * trials + 1 times.
  const double globalSeconds =
      std::max(pairSeconds * (kCudaL1Warmup + options.perfTrials + 1),
               check.seconds * (kCudaL1Warmup + options.perfTrials + 1) / std::max(1, options.correctTrials));
  reporter.enter(protocol::Phase::SeedMethod, scaledDeadline(runs * options.globalTrials, globalSeconds));
  const gpu_share::Exclusive alone;  // beside other runners: the GPU to these calls alone
  CudaL1TimingSettings settings;
  settings.globalTrials = options.globalTrials;
  settings.perfTrials = options.perfTrials;
  settings.warmup = kCudaL1Warmup;
  settings.seed = kCudaL1Seed;
  settings.orderSeed = orderSeed;
  settings.stopBelow = kCudaL1StopBelow;
  int done = 0;
  const int total = runs * options.globalTrials;
  settings.progress = py::cpp_function([&](int) { reporter.progress(++done, total); });
  try {
    pair.candidate.enter();
    const CudaL1TimingOutcome t = runCudaL1Timing(*programs, dev, settings);
    out.clock = device.is_cuda() ? "cuda-events" : "wall";
    out.scores = t.scores;
    out.referenceMs = t.referenceMs;
    out.candidateMs = t.candidateMs;
    out.stoppedEarly = t.stoppedEarly;
    out.speedup = stats::cudaL1Figure(t.scores);
    out.spread = stats::cudaL1Spread(t.scores);
  } catch (py::error_already_set& e) {
    out.note = noteFor(e, device, "CUDA-L1's timing failed (its harness: \"fail to inference\")");
    return out;
  }
  if (runs == 2) {
    CacheFlush flush(device);
    settings.flush = py::cpp_function([&flush] { flush(); });
    done = options.globalTrials;
    try {
      pair.candidate.enter();
      const CudaL1TimingOutcome t = runCudaL1Timing(*programs, dev, settings);
      out.flushedScores = t.scores;
      out.flushedSpeedup = stats::cudaL1Figure(t.scores);
    } catch (py::error_already_set& e) {
      out.note = noteFor(e, device, "the flushed twin of CUDA-L1's timing failed");
    }
  }
  return out;
}

}  // namespace ks::engine
