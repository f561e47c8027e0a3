#pragma once
// The payloads of `result` events (docs/runner-protocol.md, "Results"): the environment a number was taken
// in, what was built, whether the candidate is correct, how fast it is, and which GPU kernels it ran.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/protocol/cpu_pin_scope.h"

namespace ks::protocol {

// A problem reported by a compiler. `pythonLine` is set when the source was embedded in a Python program.
struct Diagnostic {
  std::string file;  // as the compiler named it: "cuda.cu", "main.cpp", or a path
  int line = 0;      // 0: not tied to a line (linker, ptxas)
  int column = 0;
  std::string severity;  // "error" | "warning" | "note"
  std::string message;
  std::optional<int> pythonLine;
  bool operator==(const Diagnostic&) const = default;
};

struct Clocks {  // MHz, read through NVML when it is there
  std::optional<int> sm, memory, smMax, memoryMax;
  bool operator==(const Clocks&) const = default;
};

// What keeps the candidate from the user's files, the network and the machine's processes, as the runner
// set it up at start (core/sandbox, docs/security.md). Each mechanism is its name when active, "none" when
// not (the notes say why: a kernel without Landlock, KSCOPE_CONTAINMENT=off, ...).
struct Containment {
  std::string filesystem = "none";    // "landlock": writes only under `writable` (and a few devices)
  int landlockAbi = 0;                // the kernel's Landlock ABI version; 0 without Landlock
  std::vector<std::string> writable;  // the folders writes are allowed under
  std::string network = "none";       // "seccomp": sockets other than AF_UNIX/AF_NETLINK refused (EPERM)
  std::string processes = "none";     // "subreaper": every descendant killed after each request
  std::int64_t processLimit = 0;      // the RLIMIT_NPROC set (the user's tasks at start + an allowance); 0: none
  std::int64_t fileSizeLimit = 0;     // the RLIMIT_FSIZE set, in bytes; 0: none
  std::string buildCache = "none";    // "sealed": a cached library loads only if its seal (sha256) matches
  std::vector<std::string> notes;     // what is not active, and why
  bool operator==(const Containment&) const = default;
};

struct Environment {
  std::string runner;      // "kscope-runner 0.1.0"
  std::string device;      // "cuda" | "cpu": what evaluations run on by default
  std::string deviceName;  // "NVIDIA H100 80GB HBM3"; the CPU model on cpu
  std::string driver;      // NVIDIA driver version; empty without one
  std::string cuda;        // CUDA version torch was built with; empty for a CPU build
  std::string torch, python, cpu, hostname;
  // How the runner has libpython: "static" (linked in, as the python3 executable has it) or "shared" (the
  // position-independent shared library, slower for Python-bound calls); empty from older runners.
  std::string pythonLink;
  int cpuThreads = 0;  // torch intra-op threads
  Clocks clocks;
  std::optional<Containment> containment;  // absent from older runners, which reported none
  bool operator==(const Environment&) const = default;
};

// What ptxas reported for one kernel of a build (native builds, which compile with -Xptxas -v).
struct KernelResources {
  std::string name;  // demangled
  std::string arch;  // "sm_90"
  int registers = 0, sharedBytes = 0, stackBytes = 0, spillStores = 0, spillLoads = 0;
  bool operator==(const KernelResources&) const = default;
};

// One torch.utils.cpp_extension.load_inline / load call made by a program, or the build of a native kernel.
struct ExtensionBuild {
  std::string name;
  std::string program;  // "candidate" | "reference"
  bool ok = false;
  double seconds = 0;
  bool cacheHit = false;  // nothing was compiled: an unchanged extension came from the cache
  std::vector<std::string> flags;
  std::string directory;
  std::string error;  // first lines of the compiler output when !ok (the program may have caught it)
  std::vector<Diagnostic> diagnostics;
  std::vector<KernelResources> kernels;  // native builds; load_inline builds do not report them
  // Why it failed, when !ok: a name of core/repair/build_cause.h ("bound-kernel", "source-error", ...) and
  // the compiler line that decided it. Empty in older runners' results. (Last, so that aggregate
  // initializers written before them still read.)
  std::string cause;
  std::string causeEvidence;
  bool operator==(const ExtensionBuild&) const = default;
};

struct BuildReport {
  double seconds = 0;
  bool cacheHit = true;            // every extension came from the cache (true when there was none)
  std::vector<std::string> flags;  // union of the extensions' flags, in order of first use
  std::vector<ExtensionBuild> extensions;
  bool operator==(const BuildReport&) const = default;
};

// The candidate's first extension build that failed, or nullptr. When the evaluation still produced a
// result, the program caught that failure and ran something else: its PyTorch fallback. The number measured
// is then the fallback's, not the kernel's.
const ExtensionBuild* failedCandidateBuild(const BuildReport& build);

struct SeedCheck {
  std::int64_t seed = 0;
  bool passed = false;
  double maxAbsErr = 0, maxRelErr = 0, atol = 0, rtol = 0;
  std::string message;  // why it failed; empty when passed
  bool operator==(const SeedCheck&) const = default;
};

struct InputMutation {
  std::string model;  // "reference" | "candidate"
  int input = 0;      // index into get_inputs()
  std::int64_t seed = 0;
  bool operator==(const InputMutation&) const = default;
};

struct OutputSpec {
  std::string dtype;
  std::vector<std::int64_t> shape;
  bool operator==(const OutputSpec&) const = default;
};

// Overwriting the memory the reference freed before the candidate runs, so stale results cannot be read back.
struct PoisonReport {
  bool applied = false;
  std::int64_t bytes = 0;        // free cached bytes overwritten with 0xFF (NaN for floats), all seeds
  std::int64_t blocks = 0;       // free blocks they were in
  std::int64_t missedBytes = 0;  // free bytes the fill could not reach (other streams, new segments)
  std::string note;              // why not applied, or what was missed
  bool operator==(const PoisonReport&) const = default;
};

struct Correctness {
  bool passed = false;
  std::vector<SeedCheck> seeds;
  bool inputsMutated = false;            // the candidate changed an input it was given
  std::vector<InputMutation> mutations;  // by either model
  std::vector<OutputSpec> outputs;       // of the reference, one per returned tensor
  PoisonReport poison;
  bool operator==(const Correctness&) const = default;
};

// A model whose kernels kept the GPU busy less than this share of its median timed call is host-bound: most
// of its time is the CPU launching work, so its time, and a speedup against it, move with the CPU's speed and
// load from run to run by more than its trials' spread says (docs/runner-protocol.md, "How evaluate measures").
inline constexpr double kHostBoundBusy = 0.5;

struct TimingStats {
  double medianMs = 0, minMs = 0, iqrMs = 0, cv = 0;  // of the official clock
  double hostMedianMs = 0, hostMinMs = 0;             // host wall-clock after a device-wide synchronize
  double clockGapMs = 0;  // median over trials of (host - official); ~launch overhead unless work escapes
  double maxMs = 0;       // the slowest trial, official clock
  std::vector<double> trialsMs;  // official clock, each timed trial in the order run (empty in older results)
  // GPU time of the one profiled call: its kernels' intervals merged across streams (overlaps counted once).
  // Against medianMs it says how much of a timed call the GPU was busy; absent when not profiled.
  std::optional<double> kernelMs;
  // kernelMs / medianMs: the share of a timed call the GPU was busy (over 1 when kernels overlap on streams).
  std::optional<double> busy() const {
    if (!kernelMs || !(medianMs > 0)) return std::nullopt;
    return *kernelMs / medianMs;
  }
  bool hostBound() const { return busy() && *busy() < kHostBoundBusy; }
  bool operator==(const TimingStats&) const = default;
};

// A program turned on torch.backends.cudnn.benchmark (EvaluateResult::torchSettingsChanged): cuDNN then picks
// its algorithms by timing them in each process and may pick others in the next run, so the time can move
// between runs by more than the interval says (docs/cuda-l1-h100.md: L1/77 ran other kernels in its warm run).
inline bool cudnnAutotuned(const std::vector<std::string>& torchSettingsChanged) {
  for (const std::string& change : torchSettingsChanged)
    if (change.find("cudnn.benchmark: False -> True") != std::string::npos) return true;
  return false;
}

struct Timing {
  std::string clock;  // "cuda-events" | "wall"
  int trials = 0, warmup = 0;
  std::int64_t orderSeed = 0;        // seeds the random interleaving of reference and candidate trials
  std::int64_t cacheFlushBytes = 0;  // written before each timed call to evict the GPU's L2 (0 on cpu)
  // The timing phase ran pinned to CPU `pinnedCpu`: its own thread (Thread) or every thread of the runner
  // (Process). None and absent: not pinned, or an older runner.
  CpuPinScope cpuPin = CpuPinScope::None;
  std::optional<int> pinnedCpu;
  TimingStats reference, candidate;
  double speedup = 0;      // reference.medianMs / candidate.medianMs
  double hostSpeedup = 0;  // reference.hostMedianMs / candidate.hostMedianMs
  // 95 % bootstrap interval of `speedup` over the trials (trial_stats.h): the spread of this run's trials,
  // not drift between runs. Absent in results of older runners.
  struct Interval {
    double low = 0, high = 0;
    bool operator==(const Interval&) const = default;
  };
  std::optional<Interval> speedupCi95;
  bool operator==(const Timing&) const = default;
};

struct KernelLaunch {
  std::string model;  // "reference" | "candidate"
  std::string name;
  std::int64_t stream = 0;
  int calls = 0;  // launches in one profiled call of the model
  double totalUs = 0;
  bool operator==(const KernelLaunch&) const = default;
};

// A reward-hack flag raised by one of the runner's probes (docs/hacks.md, "Runtime probes as implemented").
struct RuntimeFlag {
  std::string family;       // a family id of the catalog (core/flags/flag_families.h)
  std::string severity;     // "hack" | "suspicious" | "benign"
  double confidence = 0.5;  // 0..1
  std::string probe;        // the probe that measured it ("repeat-calls", "clock-identity", ...)
  std::string message;      // one sentence for a person
  std::vector<int> lines;   // 1-based lines of the candidate program, when the probe can tell
  nlohmann::ordered_json evidence = nlohmann::ordered_json::object();  // the numbers behind the message
  bool operator==(const RuntimeFlag&) const = default;
};

struct GpuShareWaits {
  double sharedWaitS = 0, exclusiveWaitS = 0;
  bool operator==(const GpuShareWaits&) const = default;
};

// What the runner did with a GEMM task (task.gemm): the shape, and the shape the candidate ran on. A padded
// run zero-padded M, N, K up to multiples of the kernel's tile and cropped the candidate's output to M×N;
// the reference always ran on the unpadded inputs.
struct GemmRun {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t paddedM = 0, paddedN = 0, paddedK = 0;
  bool padded() const { return paddedM != m || paddedN != n || paddedK != k; }
  bool operator==(const GemmRun&) const = default;
};

// GEMM tasks (CUDA-L2): the candidate against each baseline by each timing method, on identical inputs in
// the same process (docs/runner-protocol.md, "GEMM baselines and timing methods"). `baseline` is the CUDA-L2
// release's CSV column name, so a measured number pairs with the recorded one of the same name and mode:
// "torch.matmul", "cuBLAS-tn", "cuBLAS-nn", "cuBLASLt-heuristic-tn", "cuBLASLt-heuristic-nn",
// "cuBLASLt-auto-tuning-tn", "cuBLASLt-auto-tuning-nn", and the derived "cuBLAS-max",
// "cuBLASLt-heuristic-max", "cuBLASLt-auto-tuning-max" (the faster layout of the two, as the release counts
// them: the smaller speedup). `method` names who made the number (core/stats/gemm_methods.h):
// "cuda-l2-offline" | "cuda-l2-server" (CUDA-L2's own: a mean of per-call TFLOP/s) | "kscope-l2-flushed" |
// "kscope-l2-warm" (KernelScope's: medians of CUDA-event times, L2 flushed before each call or not).
struct BaselineTiming {
  std::string baseline;
  std::string method;
  int rounds = 0;
  // By the method's clock (`clock`): the method's mean (CUDA-L2) or median (KernelScope).
  double baselineMs = 0, candidateMs = 0;
  double speedup = 0;                              // by the method's own rule (baseline time / candidate time)
  double hostBaselineMs = 0, hostCandidateMs = 0;  // host clock to after a device-wide synchronize, same rule
  std::string fasterOf;  // the derived "-max" baselines: which layout was the faster ("cuBLAS-nn")
  // The method's clock: "host" (CUDA-L2's methods, as its harness reads time.time around each call) or
  // "cuda-events" (KernelScope's); empty in results written before CUDA-L2's methods read the host clock.
  std::string clock;
  // CUDA-L2's offline method only: the same protocol timed by CUDA events around each call (its means and
  // speedup), so that what the host clock adds per call is measured, not guessed. 0: not timed.
  double eventBaselineMs = 0, eventCandidateMs = 0, eventSpeedup = 0;
  // CUDA-L2's methods: the speedup's 95 % half-width relative to it, from the spread of the per-call rates
  // (1.96 standard errors of each mean, combined). 0: not known.
  double spread = 0;
  bool operator==(const BaselineTiming&) const = default;
};

struct GemmBaselines {
  std::vector<BaselineTiming> timings;
  std::vector<std::string> notes;  // what was not timed, and why ("cuBLAS baselines need a CUDA build")
  std::int64_t orderSeed = 0;      // seeds each round's shuffled order, the fresh inputs and the arrival gaps
  double serverQps = 0;            // cuda-l2-server's target rate (mean gap 1/qps)
  int autotuneAlgorithms = 0;      // cuBLASLt heuristic algorithms the auto-tuning baselines chose among
  bool operator==(const GemmBaselines&) const = default;
};

// CUDA-L1's own evaluation of a Python task (its eval_cuda.py eval_pipeline; core/engine/cuda_l1_method.h),
// when options.cuda_l1_eval asks for it: its correctness check and, when that passes, its timing, beside
// KernelScope's own (`correctness`, `timing`), in the same run.
struct CudaL1Check {
  int trials = 0, passed = 0;
  bool ok = false;
  double atol = 0, rtol = 0;  // torch.allclose's (CUDA-L1: 1e-2 and 1e-2)
  std::string message;        // CUDA-L1's words for the failure; empty when ok
  int failedTrial = 0;        // 1-based; 0: none failed
  std::int64_t failedSeed = 0;
  // Over the trials compared: the largest |reference - candidate|, the mean difference of that trial, and the
  // largest share of allclose's bound (atol + rtol * |candidate|) an element used: over 1 fails.
  double maxDiff = 0, avgDiff = 0, worstShare = 0;
  bool operator==(const CudaL1Check&) const = default;
};

struct CudaL1Eval {
  CudaL1Check check;
  std::string clock;  // "cuda-events" | "wall" (cpu); empty when not timed
  int globalTrials = 0, perfTrials = 0, warmup = 0;  // as asked
  // Per global trial run: mean(reference) / mean(candidate) per-call ms, and those means.
  std::vector<double> scores, referenceMs, candidateMs;
  double speedup = 0;         // the mean of `scores`: CUDA-L1's figure; 0 when not timed
  double spread = 0;          // 95 % half-width of that mean over the global trials, relative to it
  bool stoppedEarly = false;  // a score below 0.3 ended the global trials, as eval_pipeline does
  // The same protocol with the L2 cache flushed before each timed call (its scores' mean; 0: not timed).
  std::vector<double> flushedScores;
  double flushedSpeedup = 0;
  std::string note;  // why it was not timed, or what failed
  bool operator==(const CudaL1Eval&) const = default;
};

struct EvaluateResult {
  std::string codeHash;  // "sha256:<hex>" of candidate.code
  std::string device;
  Environment environment;
  BuildReport build;
  Correctness correctness;
  std::optional<Timing> timing;  // absent when the candidate is incorrect
  std::string timingNote;        // why timing is absent
  std::vector<KernelLaunch> kernels;
  std::string kernelsNote;  // why the kernel list is empty when it is
  // Process-wide torch settings the programs changed ("torch.backends.cuda.matmul.allow_tf32: False ->
  // True"); the reference ran under them too. The runner restores them after the request.
  std::vector<std::string> torchSettingsChanged;
  std::vector<RuntimeFlag> runtimeFlags;  // what the probes found (empty in results of older runners)
  // Set when the request shared the GPU with other runners (options.gpu_share): seconds it waited for the
  // lock, shared (checks) and alone (timing and profile, which ran with no other runner's work).
  std::optional<GpuShareWaits> gpuShare;
  std::optional<GemmRun> gemm;  // GEMM tasks only
  // GEMM tasks: the baselines by method; absent in older runners' results and when nothing was timed
  std::optional<GemmBaselines> baselines;
  // Python tasks whose request asked for it (options.cuda_l1_eval); absent otherwise and in older results.
  std::optional<CudaL1Eval> cudaL1;
  // Per probe, what it measured or why it did not run: {"repeat-calls": {"ran": true, ...}, ...}.
  nlohmann::ordered_json probes = nlohmann::ordered_json::object();
  bool operator==(const EvaluateResult&) const = default;
};

// Result of `build`: the candidate's program was loaded (not run) or its native kernel compiled.
struct BuildResult {
  std::string codeHash;
  BuildReport build;
  bool operator==(const BuildResult&) const = default;
};

// One step of `warm_up`: a one-time start-up cost of the device, paid once per runner process.
struct WarmUpStep {
  std::string step;    // "cuda_context", "cublas", "cudnn", "profiler"; on cpu "cpu_matmul", "cpu_conv2d"
  double seconds = 0;  // steady clock, stopped after a device-wide synchronize
  bool operator==(const WarmUpStep&) const = default;
};

// Result of `warm_up`: what the runner initialized on the device before the first real request needs it.
struct WarmUpResult {
  std::string device;  // "cuda" | "cpu"
  double seconds = 0;  // the sum of the steps' seconds
  std::vector<WarmUpStep> steps;
  bool operator==(const WarmUpResult&) const = default;
};

}  // namespace ks::protocol
