#pragma once
// A request to kscope-runner (docs/runner-protocol.md, "Requests"): what to run and how to measure it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/candidate.h"
#include "core/protocol/cpu_pin_scope.h"

namespace ks::protocol {

enum class Op { Hello, Evaluate, Build, WarmUp, Shutdown };

// One input of a native task: a tensor the runner creates (normal for floats, uniform integers otherwise).
struct TensorSpec {
  std::string name;
  std::vector<std::int64_t> shape;
  std::string dtype = "float32";  // torch dtype name without "torch.": float32, float16, bfloat16, int64, ...
  bool operator==(const TensorSpec&) const = default;
};

// A GEMM task (CUDA-L2): C = A·B with A M×K and B K×N in float16. The runner makes the inputs itself (a, b and
// b_col_major, b transposed and contiguous) and calls the candidate's out-parameter entry
// `void entry(a, b, b_col_major, c)` (docs/runner-protocol.md, "GEMM tasks").
struct GemmSpec {
  std::int64_t m = 0, n = 0, k = 0;
  // The kernel's block tile (BM, BN, BK): the candidate's inputs are zero-padded up to multiples of it when
  // the shape is not one, and its output cropped. Empty: no padding.
  std::vector<std::int64_t> padTo;
  bool operator==(const GemmSpec&) const = default;
};

struct TaskSpec {
  std::string key;  // "L1/12"; free text for the runner, echoed into nothing
  CodeLanguage language = CodeLanguage::Python;
  // Python: a KernelBench program (Model, get_inputs, get_init_inputs). Cuda: a Python expression over the
  // input names evaluated with `torch` in scope ("torch.matmul(A, B)").
  std::string reference;
  std::vector<TensorSpec> inputs;  // native tasks only (not with `gemm`, whose inputs the runner makes)
  std::optional<GemmSpec> gemm;    // native GEMM task: the shape; the reference then names a, b
  bool operator==(const TaskSpec&) const = default;
};

struct CandidateSpec {
  std::string id;
  CodeLanguage language = CodeLanguage::Python;
  std::string code;   // Python program with ModelNew, or the .cu text of a native kernel
  // native only: the C++ function `torch::Tensor entry(torch::Tensor...)`, or for a GEMM task
  // `void entry(torch::Tensor a, torch::Tensor b, torch::Tensor b_col_major, torch::Tensor c)`
  std::string entry;
  bool operator==(const CandidateSpec&) const = default;
};

// Every field optional on the wire; nullopt / empty means "the runner's default" (documented per field).
struct Options {
  std::string device;                  // "cuda" | "cpu"; empty: cuda when available, else cpu
  int seeds = 5;                       // correctness seeds: seed, seed + 1, ...
  std::optional<int> trials;           // timed trials per model; default 50 on cuda, 10 on cpu
  std::optional<int> warmup;           // untimed calls per model before timing; default 5 on cuda, 2 on cpu
  std::int64_t seed = 42;              // base seed (>= 0)
  std::string scratch;                 // working directory; empty: <tmp>/kscope-runner-<pid>/<id>
  std::string cache;                   // build cache root ("~" expands); empty: ~/.cache/kernelscope/build
  std::optional<double> atol, rtol;    // override the tolerance of the output dtype
  // A lock file runners on one GPU share (kscope batch --timing-jobs): checks hold it shared, timing and
  // profile alone. Empty: this runner assumes the GPU is its own.
  std::string gpuShare;
  std::optional<bool> profileKernels;  // list the GPU kernels of one call per model; default: on for cuda
  // nullopt: Thread on cuda, None on cpu (where torch's own threads do the work). docs/runner-protocol.md.
  std::optional<CpuPinScope> cpuPin;
  // nvcc -arch of native builds ("sm_90a"); empty: the GPU's, with the `a` suffix on compute capability 9.0
  std::string arch;
  // GEMM tasks, CUDA-L2's timing methods (core/engine/cuda_l2_method.h): each (kernel, baseline) session's
  // warm-up and timed seconds; nullopt: 0.5 and 1. `gemmBaselines` limits the baselines timed to these
  // release column names ("torch.matmul", "cuBLAS-tn", ...); empty: all seven. `gemmMethods` limits the
  // timing methods to these names (core/stats/gemm_methods.h); empty: all four.
  std::optional<double> gemmWarmupSeconds, gemmSeconds;
  std::vector<std::string> gemmBaselines, gemmMethods;
  // Python tasks: also CUDA-L1's own evaluation (core/engine/cuda_l1_method.h) with these trial counts;
  // nullopt: not run.
  struct CudaL1EvalOptions {
    int correctTrials = 10, globalTrials = 7, perfTrials = 10;
    bool flushedTwin = true;  // the same protocol again with the L2 flushed (the flush's share, measured)
    bool operator==(const CudaL1EvalOptions&) const = default;
  };
  std::optional<CudaL1EvalOptions> cudaL1Eval;
  bool operator==(const Options&) const = default;
};

struct Request {
  std::string id;
  Op op = Op::Hello;
  std::optional<TaskSpec> task;            // evaluate; build of a native kernel
  std::optional<CandidateSpec> candidate;  // evaluate, build
  Options options;  // evaluate, build; warm_up reads options.device only
  bool operator==(const Request&) const = default;
};

const char* opName(Op op);  // "hello", "evaluate", "build", "warm_up", "shutdown"

}  // namespace ks::protocol
