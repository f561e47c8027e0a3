#pragma once
// Opening anything KernelScope reads: detects the format and dispatches to the reader.
// Readers never throw on bad content: each problem becomes a LoadIssue naming file and line, and the rest
// of the input still loads. An unreadable path yields an empty RunFile with one issue.
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>

#include "core/model/run_file.h"

namespace ks {

enum class InputFormat {
  CudaL1Jsonl,
  KernelScopeRun,
  KernelBenchFolder,
  CudaSource,
  CudaL2Release,
  GoodKernelsFolder,
  KernelBenchRun,
  Unknown
};

struct LoadOptions {
  // Called now and then with the fraction done (0..1). Cheap to call; may be empty.
  std::function<void(double)> progress;
  // Set to true from another thread to stop early; the result then holds what was read, plus an issue.
  const std::atomic<bool>* cancel = nullptr;
  // The device recorded measurements were taken on, for files that do not say (CUDA-L1). Empty: taken from
  // a hint in the file name ("h100" -> "H100 (as recorded by CUDA-L1)"), else left empty.
  std::string recordedDevice;
  // A JSONL line longer than this is reported and skipped instead of being held in memory.
  std::size_t maxLineBytes = std::size_t{256} << 20;
  // Run files: read candidate lines with the fast scanner (run_format_scan.h) where it can. False reads every
  // line with the JSON reader; tests and the fuzz target compare the two.
  bool fastCandidateLines = true;
};

// Looks at the path (folder or file) and, for files, the first non-empty line. A folder with kernels/ and
// eval_results/, a kernels/<gpu>_<ACC>/ folder or an M_N_K.cu inside one is CUDA-L2 (before cuda-source); a
// folder holding ref.py and src.py, or whose sub-folders do, is good-kernels (before KernelBench). A folder
// holding eval_results.json or level_<L>_problem_<P>_sample_<S>_kernel.py files, or a file named
// eval_results.json, is a KernelBench run (after good-kernels, before the KernelBench task folder).
InputFormat detectFormat(const std::filesystem::path& path);
// "cuda-l1", "kscope-run", "kernelbench", "cuda-source", "cuda-l2", "good-kernels", "kernelbench-run",
// "unknown"
const char* formatName(InputFormat f);

RunFile loadAny(const std::filesystem::path& path, const LoadOptions& options = {});

}  // namespace ks
