#pragma once
// CUDA-L1's own evaluation, done the way its eval_cuda.py `eval_pipeline` does it, so that a number labelled
// "cuda-l1-eval" is the number CUDA-L1's harness gives on the same GPU (cross-checked by
// bench/gpu/crosscheck-l1.sh; docs/method-fidelity.md). Its authors' call: setup "vanilla", 10 correctness
// trials, 7 global trials of 10 performance trials.
//  - The check (its laziness check and check_kernel_correctness): both models built from seed 42 (inputs of
//    get_init_inputs and each model under torch.manual_seed(42)); one call of the candidate must return plain
//    tensors on the device with storage; then per trial seed (drawn by torch.randint after
//    torch.manual_seed(42)) the inputs of that seed, the reference then the candidate on the same tensors
//    (each after manual_seed of the trial seed, in eval mode); the shapes must match and
//    torch.allclose(reference, candidate, atol=1e-2, rtol=1e-2) hold. The first failing trial ends it.
//  - The timing, only when the check passed: per global trial g (seed 42 + g), a reference instance called
//    once (its warm-up model), both models built afresh from that seed, `warmup` calls of each on one set of
//    inputs (failures there ignored, as its harness ignores them), then `perfTrials` trials, each on fresh
//    inputs from get_inputs() that both models share (no clone), in an order drawn per trial
//    (random.choice), then a walk over the candidate's attributes looking for CUDA streams (its
//    find_model_streams, done every trial: host work just before the first timed call), each call between two
//    CUDA events on the current stream (the candidate's own streams waited for when its program mentions
//    cuda.Stream), a device synchronize after each; no L2 flush, no
//    pause of Python's collector. A trial's score is mean(reference) / mean(candidate) (stats::cudaL1Score);
//    a score below 0.3 ends the global trials; the figure is the mean of the scores (stats::cudaL1Figure).
// The loop is Python run by the runner's interpreter, so the call path is CUDA-L1's. Both models run under
// the torch settings the candidate left (its harness runs both programs in one process). `flushed` runs the
// same protocol with KernelScope's L2 flush before each timed call: the flush's share of a difference
// between the two methods, measured (core/runs/method_gap.h). On CPU only the bookkeeping runs, timed by
// the host clock.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ks::engine {

// The programs' objects the method calls: the reference's Model, get_init_inputs and get_inputs (its
// harness reads the inputs from the reference's program) and the candidate's ModelNew.
struct CudaL1Programs {
  pybind11::object model, modelNew, getInitInputs, getInputs;
  bool waitsForStreams = false;  // the candidate's program text mentions cuda.Stream
};

struct CudaL1CheckSettings {
  int trials = 10;
  std::int64_t seed = 42;
  double atol = 1e-2, rtol = 1e-2;
};

struct CudaL1CheckOutcome {
  int trials = 0, passed = 0;
  bool ok = false;
  std::string message;       // CUDA-L1's own words for the failure ("Value mismatch to the original model")
  int failedTrial = 0;       // 1-based; 0 when none failed
  std::int64_t failedSeed = 0;
  // Over the trials compared: the largest |reference - candidate|, the mean of the trial with it, and the
  // largest share of allclose's bound |ref - cand| / (atol + rtol * |cand|) any element used (> 1 fails).
  double maxDiff = 0, avgDiff = 0, worstShare = 0;
  double seconds = 0;  // wall time of the check, for the timing phase's deadline
};

struct CudaL1TimingSettings {
  int globalTrials = 7, perfTrials = 10, warmup = 3;
  std::int64_t seed = 42;           // global trial g uses seed + g
  std::uint64_t orderSeed = 42;     // the per-trial order (CUDA-L1's random.choice is unseeded)
  double stopBelow = 0.3;           // eval_pipeline's early stop
  pybind11::object flush;           // empty or None: no flush (CUDA-L1's); a callable run before each timed call
  pybind11::object progress;        // empty or None, or called with the global trials done
};

struct CudaL1TimingOutcome {
  std::vector<double> scores, referenceMs, candidateMs;  // per global trial; times are mean per-call ms
  bool stoppedEarly = false;
};

// Throw pybind11::error_already_set when the method's own code fails; a model that raises is the outcome's
// message (check) or propagates (timing: eval_pipeline counts it as "fail to inference").
CudaL1CheckOutcome runCudaL1Check(const CudaL1Programs& programs, const std::string& device,
                                  const CudaL1CheckSettings& settings);
CudaL1TimingOutcome runCudaL1Timing(const CudaL1Programs& programs, const std::string& device,
                                    const CudaL1TimingSettings& settings);

}  // namespace ks::engine
