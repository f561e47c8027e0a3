#pragma once
// The runtime probes of one evaluation (docs/hacks.md, "Runtime probes as implemented"). Created before
// either program loads, so the process's threads and timing functions are known as they were; told about
// each model's construction and each correctness call; then run their own calls of both models in the
// `probes` phase; and given the timing and the profile. finish() judges what they measured
// (probe_verdicts.h) into the result's runtime_flags and probes.
//
// The probes phase, on inputs of seeds s and s + 1 (X1, X2):
//   decoy          a tensor with the reference's first row and a wrong remainder alive in the caller's frame
//                  (and in the garbage collector's youngest generation) while the candidate runs;
//   repeat calls   inputs P = X1 (tensors whose Python ids and addresses the candidate was never given): a
//                  call read at return and again after a synchronize and a delay (deferred work; up to three
//                  such calls while none shows it; threads alive then), two more calls on P (same object or
//                  storage? much faster?),
//                  one value of each input of P changed in place (output unchanged?), P overwritten in place
//                  with X2 (output unchanged?), two calls on fresh copies of X2 (output equal to X1's?);
//   float64        the reference run in float64 on X1, against the float32 reference and the candidate;
//   weak task      an all-zero output and the reference's output for X1 with its elements shuffled, against
//                  the reference's output for X1 (does the tolerance tell answers apart?);
//   distributions  both models on X1 scaled, shifted, rounded to integers and with rows of mixed scale;
//   inputs         the candidate program's own get_inputs / get_init_inputs against the reference's.
// Around them: before the candidate's program is imported, one reference call traced (which torch functions
// it runs) and a few timed (referenceAlone); after the timing loop, a sample of the timed outputs and a call
// on inputs of an unseen seed checked (timedOutput, freshAfterTiming).
#include <pybind11/pybind11.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/probes/chrome_trace.h"
#include "core/engine/clock_identity.h"
#include "core/engine/event_sink.h"
#include "core/engine/import_state.h"
#include "core/engine/l2_persistence.h"
#include "core/engine/model_pair.h"
#include "core/probes/probe_evidence.h"
#include "core/engine/thread_census.h"
#include "core/engine/thread_cpu.h"
#include "core/engine/thread_pool.h"
#include "core/engine/torch_identity.h"
#include "core/engine/trial_clock.h"
#include "core/engine/write_watch.h"

namespace ks::engine {

struct ProbeResults {
  std::vector<protocol::RuntimeFlag> flags;
  nlohmann::ordered_json report;
};

class RuntimeProbes {
 public:
  // Takes the baselines: call before any program of the request is loaded.
  explicit RuntimeProbes(const c10::Device& device);
  // Puts back any timing function still replaced, however the request ended (a program that raised after
  // replacing one at import, for instance).
  ~RuntimeProbes();
  RuntimeProbes(const RuntimeProbes&) = delete;
  RuntimeProbes& operator=(const RuntimeProbes&) = delete;

  // Watches the programs' writes from now on (write_watch.h): outside `writable` they are refused and become
  // evidence. Call before either program loads; `programs` are the files they will be compiled as.
  void watchWrites(const std::vector<std::filesystem::path>& writable, const std::vector<ProgramFile>& programs);

  // A model was constructed (TaskContext::constructed): timing functions replaced since the last look are
  // recorded and put back.
  void constructed(const std::string& role, const std::vector<ProgramFile>& programs);

  // The reference model is constructed and the candidate's program not yet imported: one reference call on
  // the inputs of `seed` traced (the torch functions it runs), then a few timed the way the trials time them
  // (slowed-reference: what the reference takes where no candidate code has run).
  void referenceAlone(const ModelUnderTest& reference,
                      const std::function<Outcome<ModelArgs>(std::int64_t)>& inputs, std::int64_t seed);

  // Correctness calls. `original` are the untouched inputs, `args` the clone the model was given.
  void referenceCalled(const ModelArgs& original, const ModelArgs& args,
                       const std::vector<at::Tensor>& outputs);
  // `reference` is the reference's output on the same inputs; atol / rtol override the dtypes' tolerances.
  void candidateCalled(std::int64_t seed, const ModelArgs& original, const ModelArgs& args,
                       const pybind11::handle& output, const std::vector<at::Tensor>& reference,
                       std::optional<double> atol, std::optional<double> rtol);

  // The probes phase. A model raising inside a probe ends that probe with a note; only a lost CUDA context
  // is an error.
  std::optional<protocol::ErrorInfo> run(ModelPair& pair, std::int64_t seed, bool correct,
                                         PhaseReporter& reporter, double pairSeconds);

  // The output of timed candidate call `trial` (1-based), sampled by the timing loop: a detached copy is kept
  // (about what an input clone costs; at most kHeldTimedOutputBytes, and always the first sample), and
  // checkTimedOutputs compares it once the loop is over. Comparing inside the loop put work between the
  // timed calls that the judge's clock rule does not allow for (result_acceptance.h): on a loaded 2-core
  // machine a correct elementwise candidate was refused as tampering.
  void timedOutput(int trial, const pybind11::handle& output);
  // After the loop: each kept output against the reference's output for the first correctness seed (the
  // timed inputs) and the candidate's own there.
  void checkTimedOutputs();
  // After the loop: a call like a timed one on inputs of a seed no earlier call saw, checked.
  void freshAfterTiming(std::int64_t seed, const protocol::SeedCheck& check);
  // Whether the reference's fastest timed call is slow enough against its time alone that more reference calls
  // should confirm it (a loaded machine slows any one call), and their fastest.
  bool referenceLooksSlowed(double loadedMinMs);  // measures the calibration workload once, after the trials
  int referenceAloneCalls() const;                // the reference's calls timed alone (0: not timed alone)
  void referenceLoaded(double loadedMinMs, double loadedMedianMs, int calls);
  // Around each timed reference call with the candidate loaded (the loop's trials and the confirming calls):
  // the CPU that threads started since the reference was timed alone used meanwhile (thread_cpu.h).
  void referenceCallStarting();
  void referenceCallEnded();
  // What moving the task's own inputs and outputs takes on this device (impossible-time), timed like a trial on
  // `clock` after `flush`; called before and after the timing loop (its last progress event), keeping the
  // fastest, so one moment of a loaded machine does not raise the floor. Needs a correctness call first (the
  // bytes of one call's inputs and outputs).
  void measureMovingFloor(TrialClock& clock, CacheFlush& flush);
  void timed(const protocol::Timing& timing, int timedCandidateCalls);
  void profiled(const ChromeTrace& reference, const ChromeTrace& candidate);
  void notProfiled(const std::string& why);
  // After a profile: whose kernels the candidate ran, from what the request built and its program.
  void kernelsRan(const protocol::BuildReport& build, const std::vector<protocol::KernelLaunch>& kernels,
                  const std::string& candidateCode);

  ProbeResults finish(const std::string& deviceName);

 private:
  struct Calls;
  void checkClocks(const std::string& when);
  void checkThreadPool(const std::string& when);
  void rememberGiven(const ModelArgs& args);  // Python ids and data pointers of the candidate's inputs
  bool givenBefore(const ModelArgs& args) const;
  void compareProgramInputs(ModelPair& pair, std::int64_t seed);
  void probeCallNonfinite(std::int64_t seed, const std::vector<at::Tensor>& reference,
                          const std::vector<at::Tensor>& candidate);
  void decoyProbe(Calls& calls, const ModelArgs& inputs);
  void repeatProbe(Calls& calls, const ModelArgs& first, const ModelArgs& second);
  void precisionProbe(Calls& calls, const ModelArgs& first);
  void float64Precision(Calls& calls, const ModelArgs& first);  // precisionProbe's float64 tasks
  std::optional<std::vector<at::Tensor>> referenceIn(Calls& calls, const ModelArgs& first, at::ScalarType type,
                                                     std::string& note);
  void weakTaskProbe(Calls& calls, const ModelArgs& first);
  void distributionProbe(Calls& calls, const ModelArgs& first);

  c10::Device device_;
  ThreadCensus threadsBefore_;
  ClockIdentity clocks_;
  TorchIdentity torch_;
  ImportState imports_;
  ThreadPoolState pool_;  // the runner's thread pool before any program loaded (the reference's, once built)
  PersistingL2 l2Before_;  // persisting L2 before any program loaded
  std::unique_ptr<WriteWatch> writes_;
  std::vector<ProgramFile> programs_;
  pybind11::dict helpers_;  // the probes' Python functions
  ProbeEvidence evidence_;
  std::vector<int> referenceAliases_, referenceMutations_;  // input indexes, any seed
  std::set<std::uintptr_t> given_;  // Python ids and data pointers of every tensor given to the candidate
  std::vector<at::Tensor> firstCandidateOutput_, firstReferenceOutput_;  // X1, from the repeat probe
  // The first correctness seed's outputs (the timed inputs): the reference's and the candidate's checked one.
  std::vector<at::Tensor> checkedReference_, checkedCandidate_;
  std::optional<double> atol_, rtol_;  // the request's tolerance overrides
  std::int64_t probeSeed_ = 0;         // the probes phase's first seed
  struct TimedSample {
    int trial = 0;
    std::vector<at::Tensor> outputs;  // detached copies
    std::string notTensors;           // why the output is no tensors, instead
  };
  std::set<pid_t> threadsBeforeCandidate_;  // native threads when the reference was timed alone
  ThreadTimes referenceCallStart_;
  std::chrono::steady_clock::time_point referenceCallStartedAt_;
  std::vector<TimedSample> timedSamples_;  // kept by timedOutput until checkTimedOutputs
  std::int64_t heldTimedBytes_ = 0;
  int skippedTimedSamples_ = 0;  // over kHeldTimedOutputBytes
};

inline constexpr std::int64_t kHeldTimedOutputBytes = std::int64_t{1} << 30;
// The moving floor's reads and writes at each of its two moments, the fastest kept.
inline constexpr int kMovingFloorRepetitions = 3;

}  // namespace ks::engine
