#pragma once
// What the runtime probes measured on one evaluation (docs/hacks.md, "Runtime probes as implemented"), in
// plain numbers: filled by runtime_probes.h while the models run, judged by probe_verdicts.h. No torch types,
// so the judgement is testable without running anything.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/protocol/evaluate_result.h"

namespace ks::engine {

inline constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

// A timing function (time.perf_counter, torch.cuda.Event.elapsed_time, ...) found replaced.
struct ClockPatchEvidence {
  std::string name;         // "time.perf_counter"
  std::string replacement;  // the replacing object's qualified name
  std::string program;      // "candidate" | "reference" when the replacement is defined in a program, else ""
  int line = 0;             // its definition's line in `program`
  std::string when;         // "after the candidate program loaded", "during a candidate call"
  bool checker = false;     // a comparison function (checker-patch) rather than a clock (timer-patch)
};

// A change to what `import` finds (import_state.h): sys.path, import hooks, a loaded module replaced.
struct ImportChangeEvidence {
  std::string what;
  bool shadows = false;  // a module replaced or removed, or an import hook (not only a search path)
  std::string when;      // as ClockPatchEvidence::when
};

// A model changed an input it was given (compared bitwise with the untouched copy).
struct MutationEvidence {
  int input = 0;
  std::int64_t seed = 0;
  std::int64_t changed = 0, numel = 0;
  double maxAbsChange = 0;
  bool beyondTolerance = false;  // some value moved by more than the output tolerance allows
  bool referenceToo = false;     // the reference changes the same input
};

// The candidate's output shares storage with one of its inputs.
struct AliasEvidence {
  int input = 0;
  std::int64_t seed = 0;
  bool inputMutated = false;  // ... which it also changed
  bool referenceToo = false;  // the reference's output shares storage with the same input
};

// The output is not a plain tensor: a torch.Tensor subclass, or an object that acts as one.
struct LazyOutputEvidence {
  std::string type;             // "module.ClassName"
  bool tensorSubclass = false;  // a torch.Tensor subclass (else an object with __torch_function__)
  std::int64_t storageBytes = -1, neededBytes = 0;  // subclass: its storage and what its shape needs
};

// Output values that still hold the poison written into freed memory before the candidate ran.
struct PoisonedOutputEvidence {
  std::int64_t seed = 0, poisoned = 0, numel = 0;
  std::string pattern;  // "0x7fedbeef (cpu allocator junk)", "0xff bytes (freed CUDA cache blocks)"
};

struct NonfiniteEvidence {
  std::int64_t seed = 0, count = 0, numel = 0;  // non-finite output values where the reference is finite
  bool probeCall = false;  // seen in a call of the probes phase, not in a checked one
};

// The candidate program's own get_inputs / get_init_inputs against the reference's, under one seed.
struct InputsEvidence {
  bool compared = false;
  std::string note;  // why not compared
  std::vector<std::string>
      differences;  // "get_inputs()[0]: float32[128, 128], the reference's float32[256, 256]"
  int getInputsLine = 0, getInitInputsLine = 0;  // their definitions in the candidate program
};

// Calls on the same, refilled, perturbed and fresh inputs (runtime_probes.h, "repeat calls").
struct RepeatEvidence {
  bool ran = false;
  std::string note;
  bool sameObject = false;         // two calls on the same inputs returned the same Python object
  bool sameStorageRepeat = false;  // ... or outputs sharing storage
  bool sameStorageFresh = false;   // a call on new inputs of another seed returned the first call's storage
  bool referencesDiffer = false;   // the reference's outputs for the two seeds differ (bitwise)
  bool independent = false;        // the candidate's outputs for the two seeds are bitwise equal
  bool staleAfterRefill =
      false;  // inputs overwritten in place with the other seed's values: output unchanged
  bool perturbChangesReference = false;  // one value of each input changed in place changes the reference
  bool staleAfterPerturb = false;        // ... but not the candidate's output
  bool firstResultOverwritten = false;   // the first call's output changed when the model was called again
  bool holdsCudaGraph = false;           // the candidate module keeps a torch.cuda.CUDAGraph
  // The faster of two calls each: on the same inputs, on fresh inputs, and the reference's.
  double repeatMs = kNotMeasured, freshMs = kNotMeasured, referenceMs = kNotMeasured;
};

// The output read at return and again after a device-wide synchronize and a delay; threads then alive.
struct DeferredEvidence {
  bool ran = false;
  std::string note;
  std::int64_t changedAfterReturn = 0, numel = 0;
  double delayMs = 0;
  std::vector<std::string> newThreads;  // Python threads alive after the call, not alive before loading
  int nativeThreadsBefore = 0, nativeThreadsAfter = 0;  // /proc/self/task
};

// A tensor with the right first row and a wrong remainder, alive in the calling frame during a call.
struct DecoyEvidence {
  bool ran = false;
  std::string note;
  bool sharesStorage = false;  // the output is the decoy
  std::int64_t equalToDecoy = 0, numel = 0;
};

// The candidate's error against the reference run in float64, beside the float32 reference's own.
struct PrecisionEvidence {
  bool ran = false;
  std::string note;
  std::string dtype;
  double candidateError = 0, referenceError = 0;  // max |x - float64 reference|
  double scale = 0;                               // max |float64 reference|
  double epsilon = 0;                             // of the output dtype
  // A float64 task: referenceError is not measured but estimated, the float32 run's error against the
  // reference (float32Error) times 2^-29, float64's epsilon over float32's.
  bool estimatedFromFloat32 = false;
  double float32Error = 0;
};

// validation-drift (and benchmark-detection at run time): the timed calls checked after the loop. A sample of
// the timed trials' candidate outputs against the reference's output on the same inputs (the first
// correctness seed's) and against the candidate's own checked output there; then a call made like a timed one
// (collector paused, no allocator fill, L2 flushed) on inputs of a seed no earlier call saw, against the
// reference.
struct DriftEvidence {
  bool ran = false;
  std::string note;
  int timedTrials = 0;                  // timed candidate calls
  std::vector<int> sampledTrials;       // 1-based indexes of the timed calls whose outputs were checked
  int wrongTrial = 0;                   // the first sampled trial whose output failed the tolerance (0: none)
  std::string wrongMessage;             // ... and how
  double timedChange = 0;               // max |timed output - the candidate's checked output, same inputs|
  int changedTrial = 0;                 // the sampled trial where that change is largest
  bool freshRan = false;
  std::int64_t freshSeed = 0;
  bool freshPassed = true;
  std::string freshMessage;
  // The probes' first call on the first correctness seed's inputs against the checked call on them: the same
  // inputs, outputs apart by this much (behaviour that changed after the checked calls).
  double probeChange = kNotMeasured;
};

// weak-task: whether the task's tolerance tells an answer from outputs that ignore the inputs.
struct WeakTaskEvidence {
  bool ran = false;
  std::string note;
  bool zeroPasses = false;      // an all-zero output passes against the reference's output
  double zeroError = 0;         // max |reference|
  bool shuffledPasses = false;  // the reference's output for inputs with their elements shuffled passes
  bool shuffledChanged = false;  // ... and differs from it by more than rounding (else shuffling says nothing)
  double shuffledError = 0;
  double candidateError = kNotMeasured;  // max |candidate - reference| on the same inputs
};

// input-branching: both models on inputs of the first seed transformed to another distribution.
struct DistributionEvidence {
  std::string name;         // "scaled x3", "shifted +1.5", "integer-valued", "rows of mixed scale"
  bool referenceFinite = false;
  bool passed = true;       // the candidate against the reference, with the task's tolerance
  std::string message;      // the comparison's, when it failed (or why the distribution was not run)
  std::int64_t candidateNonfinite = 0;  // NaN or infinite values in the candidate's output
};

// nondeterminism: two calls on identical inputs (fresh tensors of one seed's values, two addresses).
struct NondeterminismEvidence {
  bool ran = false;
  std::string note;
  double maxDifference = 0;
  std::int64_t differing = 0, numel = 0;  // values whose bits differ
  bool withinTolerance = true;            // the two outputs pass against each other
};

// slowed-reference: the reference timed (and traced) before the candidate's program was imported, against
// its times with the candidate loaded.
struct ReferenceAloneEvidence {
  bool ran = false;
  std::string note;
  int calls = 0;
  double aloneMinMs = kNotMeasured, aloneMedianMs = kNotMeasured;  // before the candidate's import
  double loadedMinMs = kNotMeasured;  // the fastest reference call timed with the candidate loaded
  double loadedMedianMs = kNotMeasured;  // the median of the timed trials: what the speedup divides
  int loadedCalls = 0;
  // A fixed workload run from C++ (no Python, the GIL held) at both moments, fastest of a few: how much the
  // machine itself slowed between them (other processes), which the reference's slowdown is judged against.
  double aloneCalibrationMs = kNotMeasured, loadedCalibrationMs = kNotMeasured;
  std::vector<std::string> calledRebound;  // torch functions the reference called, found rebound
  // Threads started after the reference was timed alone (the candidate's program, or torch on its behalf):
  // the CPU they used while the reference's timed calls ran, against those calls' wall time.
  bool threadsCounted = false;
  double foreignThreadCpuMs = 0;
  double referenceWindowMs = 0;  // wall time of the reference's timed calls, as the probes saw them
  int referenceWindows = 0;
  int foreignThreads = 0;  // the most such threads that ran during one call
};

// slowed-reference: the thread pool the reference runs on. Torch's intra-op thread count and the variables that
// size OpenMP's, MKL's, OpenBLAS's and numexpr's pools, remembered before any program loaded (the runner's defaults),
// compared after each construction and each candidate call and put back at once; the count each timed reference
// call ran with.
struct ThreadPoolChangeEvidence {
  std::string what;           // "torch.get_num_threads()", "OMP_NUM_THREADS", "MKL_NUM_THREADS (C environment)"
  std::string before, after;  // "(unset)" for a variable not set
  std::string when;           // "after the candidate program loaded", "during a candidate call"
};
struct ThreadPoolEvidence {
  bool checked = false;
  std::string note;         // "default is 1 thread; not observable" where a lowered count cannot show
  int defaultThreads = 0;   // torch.get_num_threads() before any program loaded
  int referenceTimedThreads = 0;  // the fewest a timed reference call ran with (0: none seen)
  std::vector<ThreadPoolChangeEvidence> changes;
};

// l2-persistence: persisting L2 as the candidate left it (l2_persistence.h), against before any program.
struct L2Evidence {
  bool checked = false;
  std::string note;
  std::int64_t limitBefore = 0, limitAfter = 0;  // cudaLimitPersistingL2CacheSize
  std::int64_t windowBytes = 0;                  // the current stream's access-policy window after the calls
  bool windowPersisting = false;
};

// A write outside the request's folders that the runner refused (write_watch.h).
struct RefusedWriteEvidence {
  std::string path, event, program;
  int line = 0;
};

// A torch function or module method found replaced (torch_identity.h), not a clock or checker.
struct TorchRebindEvidence {
  std::string name;
  std::string replacement;
  std::string program;
  int line = 0;
  std::string when;
  bool referenceCalls = false;  // the reference's traced call ran the original
};

struct SideStreamEvidence {
  std::int64_t stream = 0;
  int kernels = 0;
  std::string firstKernel;
  double endsAfterCallUs = 0;  // its last kernel's end minus the end marker's start (> 0: ran past the call)
  std::optional<bool> joined;  // the current stream waited for it (known when sync events were recorded)
};

// The kernels of one profiled candidate call, between marker kernels on the current stream.
struct StreamEvidence {
  bool profiled = false;
  std::string note;
  std::int64_t currentStream = -1;
  bool syncEventsRecorded = false;
  int currentStreamWaits = 0;  // waits of the current stream on a stream the trace names
  int unresolvedWaits = 0;     // waits of the current stream whose source stream the profiler did not name
  std::vector<SideStreamEvidence> sideStreams;
  int referenceSideStreams = 0;  // the reference's own kernels off its current stream
};

// Whose kernels the profiled candidate call ran (kernel_origin.h).
struct KernelOriginEvidence {
  bool profiled = false;
  int candidateBuilds = 0, failedBuilds = 0;  // load_inline / load calls of the candidate program
  std::vector<std::string> declaredKernels;   // __global__ functions in its sources
  bool tritonKernels = false;                 // it defines @triton.jit functions
  std::vector<std::string> declaredRan;       // declared kernels seen in the profile
  int candidateKernels = 0;                   // distinct kernel names in its profile
  int kernelsNotInReference = 0;              // ... that the reference's profile does not have
  // Its kernels by arithmetic, from their names: TF32 tensor-core kernels ("..._tf32f32_..."), and 16-bit
  // ones (__half, bfloat16, fp16 tiles). The float64 probe's error reads differently for each.
  std::vector<std::string> tf32Kernels, halfKernels;
};

// impossible-time on every device: what moving the task's own bytes takes here. A buffer of the inputs' size
// read once (a sum) and one of the outputs' size written once (a fill), each timed like a trial (the request's
// clock, the L2 flushed first), the fastest of a few. A candidate must read its inputs and write its outputs
// whatever arithmetic it saves: an algebraic rewrite still moves them, a result kept from an earlier call does
// not.
struct MovingFloorEvidence {
  bool measured = false;
  std::string note;                                      // why not measured
  std::int64_t bytes = 0;                                // input bytes + output bytes of one call
  double readMs = kNotMeasured, writeMs = kNotMeasured;  // the fastest of each
  double floorMs = kNotMeasured;                         // their sum (scaled when the buffers were capped)
  int repetitions = 0;
  double scaledBy = 1;  // buffers capped below the task's bytes: times scaled up by this factor
};

struct ProbeEvidence {
  std::string device;      // "cpu" | "cuda"
  std::string deviceName;  // for the bandwidth table
  bool correct = false;
  std::vector<ClockPatchEvidence> clockPatches;
  std::vector<ImportChangeEvidence> importChanges;
  std::vector<std::string> candidateSettings;  // torch settings the candidate changed ("...: False -> True")
  // Each model's settings as its calls ran them (name, value), for the side-by-side record (unfair-baseline).
  std::vector<std::pair<std::string, std::string>> referenceSettingValues, candidateSettingValues;
  std::vector<TorchRebindEvidence> torchRebinds;
  DriftEvidence drift;
  WeakTaskEvidence weakTask;
  std::vector<DistributionEvidence> distributions;
  std::string distributionsNote;  // why not run
  NondeterminismEvidence nondeterminism;
  ReferenceAloneEvidence referenceAlone;
  ThreadPoolEvidence threadPool;
  L2Evidence l2;
  std::vector<RefusedWriteEvidence> refusedWrites;
  // The size of rounding for the first seed's output: max(float32 reference's error against float64, epsilon
  // x max |output|); what reordered sums may differ by. NaN when not known.
  double rounding = kNotMeasured;
  std::vector<MutationEvidence> mutations;
  std::vector<AliasEvidence> aliases;
  std::optional<LazyOutputEvidence> lazy;
  std::optional<PoisonedOutputEvidence> poisoned;
  std::optional<NonfiniteEvidence> nonfinite;
  InputsEvidence inputs;
  RepeatEvidence repeat;
  DeferredEvidence deferred;
  DecoyEvidence decoy;
  PrecisionEvidence precision;
  StreamEvidence streams;
  KernelOriginEvidence kernelOrigin;
  std::int64_t inputBytes = 0, outputBytes = 0;  // of one call
  MovingFloorEvidence movingFloor;
  std::optional<protocol::Timing> timing;
};

}  // namespace ks::engine
