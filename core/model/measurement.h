#pragma once
// One timing of a candidate against one baseline: recorded in a file (a claim) or measured by KernelScope.
// Its names are SharedStrings: a million-candidate run holds two million measurements (shared_string.h).
#include <optional>
#include <string>

#include "core/model/shared_string.h"

namespace ks {

struct Measurement {
  // What the speedup is relative to: "default" (the PyTorch reference as written), "torch_compile_default",
  // "torch_compile_reduce_overhead", "cuda_graph", "cudnn", or any name a run file uses.
  SharedString baseline = "default";
  std::optional<double> speedup;      // baseline time / candidate time
  std::optional<double> baselineMs;   // median time of the baseline, milliseconds
  std::optional<double> candidateMs;  // median time of the candidate, milliseconds
  SharedString device;                // "NVIDIA H100 80GB HBM3", "cpu", ... ("" when the file does not say)
  SharedString origin = "recorded";   // "recorded" (a claim read from a file) | "measured" (re-run here)
  SharedString when;                  // ISO-8601 timestamp, may be empty
  // How the source timed it, when it says: CUDA-L2 "offline" (calls back to back) | "server" (calls at a
  // target rate). Empty otherwise. A baseline's numbers in different modes are different series.
  SharedString mode;
  // The verdict of the run behind the numbers, when the source says: "correct", "incorrect" (the output did
  // not match the reference) or "error" (it did not build or crashed: `error` says why). Empty: not said (a
  // number alone, which counts as correct). A failed run carries no speedup.
  SharedString outcome;
  SharedString error;
};

}  // namespace ks
