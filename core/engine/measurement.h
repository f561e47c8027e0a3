#pragma once
// Correctness, timing and kernel profile of a model pair (shared/DESIGN.md, "Measurement").
//
// Correctness, per seed s in seed, seed + 1, ...: inputs from torch.manual_seed(s); the reference runs on
// its own clone and its output is kept as copies no Python object refers to; the free memory it left in the
// CUDA cache is poisoned (on CPU the candidate's allocations are junk-filled); the candidate runs on another
// clone; both clones are compared with the untouched inputs (mutation); the outputs are compared
// (output_compare.h). Each call is made under its model's own torch settings (ModelUnderTest::enter).
// Probes (runtime_probes.h): their own calls of both models, correct candidate or not.
// Timing (only when correct): `warmup` untimed calls of each model, then `trials` trials, each calling both
// models once in an order drawn from a generator seeded with `seed`, each call on a fresh clone of the
// inputs, after the GPU's L2 cache was flushed (CacheFlush); per call the trial clock's two readings
// (trial_clock.h). Profile (CUDA, when asked): one call of each model under torch.profiler.
#include <c10/core/Device.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/cpu_pin.h"
#include "core/engine/event_sink.h"
#include "core/engine/model_pair.h"
#include "core/engine/runtime_probes.h"
#include "core/protocol/evaluate_result.h"

namespace ks::engine {

inline constexpr double kTimingBudgetS = 2.0;
inline constexpr int kMinBudgetTrials = 10;

// The trials to run: `trials`, or where `fitBudget`, as many as fit in kTimingBudgetS at `pairSeconds` per
// trial, between kMinBudgetTrials and `trials`.
int trialCount(int trials, bool fitBudget, double pairSeconds);

struct MeasureSettings {
  c10::Device device = c10::Device(c10::kCPU);
  int seeds = 5;
  std::int64_t seed = 42;
  int trials = 10, warmup = 2;
  // `trials` is the default, not asked for: fewer trials (not below kMinBudgetTrials) where that many would
  // take longer than kTimingBudgetS at the pair's typical call time.
  bool trialsFitBudget = false;
  std::optional<double> atol, rtol;
  bool profile = false;
  CpuPinScope cpuPin = CpuPinScope::None;  // held through warm-up and trials (cpu_pin.h)
  std::filesystem::path scratch;  // profiler traces are written here
};

struct Measurement {
  protocol::Correctness correctness;
  std::optional<protocol::Timing> timing;
  std::string timingNote;
  std::vector<protocol::KernelLaunch> kernels;
  std::string kernelsNote;
};

// One call of the candidate on the inputs of `seed`, its output unchecked: the `build` op's way of making a
// program build the extensions its model compiles in its constructor or on its first call. A raising call
// is a `runtime` error (a `build` error when a failed build raised it).
Outcome<bool> callCandidateOnce(ModelPair& pair, const c10::Device& device, std::int64_t seed,
                                PhaseReporter& reporter);

// A model that raises (or returns something that is not a tensor) ends the measurement with a `runtime`
// error naming it; an incorrect candidate is a Measurement with correctness.passed false.
// `probes` are told about every correctness call, run their phase, and get the timing and the profile.
Outcome<Measurement> measure(ModelPair& pair, const MeasureSettings& settings, PhaseReporter& reporter,
                             RuntimeProbes& probes);

}  // namespace ks::engine
