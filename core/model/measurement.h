#pragma once
// One timing of a candidate against one baseline: recorded in a file (a claim) or measured by KernelScope.
#include <optional>
#include <string>

namespace ks {

struct Measurement {
  // What the speedup is relative to: "default" (the PyTorch reference as written), "torch_compile_default",
  // "torch_compile_reduce_overhead", "cuda_graph", "cudnn", or any name a run file uses.
  std::string baseline = "default";
  std::optional<double> speedup;      // baseline time / candidate time
  std::optional<double> baselineMs;   // median time of the baseline, milliseconds
  std::optional<double> candidateMs;  // median time of the candidate, milliseconds
  std::string device;                 // "NVIDIA H100 80GB HBM3", "cpu", ... ("" when the file does not say)
  std::string origin = "recorded";    // "recorded" (a claim read from a file) | "measured" (re-run here)
  std::string when;                   // ISO-8601 timestamp, may be empty
  // How the source timed it, when it says: CUDA-L2 "offline" (calls back to back) | "server" (calls at a
  // target rate). Empty otherwise. A baseline's numbers in different modes are different series.
  std::string mode;
};

}  // namespace ks
