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
//   inputs         the candidate program's own get_inputs / get_init_inputs against the reference's.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/engine/chrome_trace.h"
#include "core/engine/clock_identity.h"
#include "core/engine/event_sink.h"
#include "core/engine/import_state.h"
#include "core/engine/model_pair.h"
#include "core/engine/probe_evidence.h"
#include "core/engine/thread_census.h"

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

  // A model was constructed (TaskContext::constructed): timing functions replaced since the last look are
  // recorded and put back.
  void constructed(const std::string& role, const std::vector<ProgramFile>& programs);

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

  void timed(const protocol::Timing& timing);
  void profiled(const ChromeTrace& reference, const ChromeTrace& candidate);
  void notProfiled(const std::string& why);
  // After a profile: whose kernels the candidate ran, from what the request built and its program.
  void kernelsRan(const protocol::BuildReport& build, const std::vector<protocol::KernelLaunch>& kernels,
                  const std::string& candidateCode);

  ProbeResults finish(const std::string& deviceName);

 private:
  struct Calls;
  void checkClocks(const std::string& when);
  void rememberGiven(const ModelArgs& args);  // Python ids and data pointers of the candidate's inputs
  bool givenBefore(const ModelArgs& args) const;
  void compareProgramInputs(ModelPair& pair, std::int64_t seed);
  void decoyProbe(Calls& calls, const ModelArgs& inputs);
  void repeatProbe(Calls& calls, const ModelArgs& first, const ModelArgs& second);
  void precisionProbe(Calls& calls, const ModelArgs& first);

  c10::Device device_;
  ThreadCensus threadsBefore_;
  ClockIdentity clocks_;
  ImportState imports_;
  std::vector<ProgramFile> programs_;
  pybind11::dict helpers_;  // the probes' Python functions
  ProbeEvidence evidence_;
  std::vector<int> referenceAliases_, referenceMutations_;  // input indexes, any seed
  std::set<std::uintptr_t> given_;  // Python ids and data pointers of every tensor given to the candidate
  std::vector<at::Tensor> firstCandidateOutput_, firstReferenceOutput_;  // X1, from the repeat probe
};

}  // namespace ks::engine
