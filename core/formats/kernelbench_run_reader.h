#pragma once
// The run folders KernelBench's own scripts write (docs/formats.md, "KernelBench runs"): generate_samples.py
// writes runs/<run_name>/level_<L>_problem_<P>_sample_<S>_kernel.py, eval_from_generations.py adds
// runs/<run_name>/eval_results.json. One task per (level, problem), one candidate per sample, with the
// recorded compiled/correctness verdict and runtime. The reference programs are read from a KernelBench
// task folder (KernelBench/level<L>/<P>_<Name>.py); the reference's recorded times, when found, from
// results/timing/<hardware>/baseline_time_torch.json, and then a recorded speedup is baseline / runtime.
#include <filesystem>

#include "core/formats/load.h"

namespace ks {

enum class KernelBenchRunInput { None, RunFolder, EvalResultsFile };

// RunFolder: a folder holding eval_results.json or a level_<L>_problem_<P>_sample_<S>_kernel.py.
// EvalResultsFile: a file named eval_results.json (its folder is the run).
KernelBenchRunInput kernelBenchRunInputKind(const std::filesystem::path& path);

struct KernelBenchRunOptions {
  // The KernelBench task folder (holding level1/, level2/, ...). Empty: the first ancestor of the run
  // folder that holds a KernelBench/ task folder gives it (KernelBench's own checkout: runs/ beside it).
  std::filesystem::path tasksFolder;
  // A baseline timing file of generate_baseline_time.py ({"level1": {"<P>_<Name>.py": {"mean": ms}}}).
  // Empty: <ancestor>/results/timing/<hardware>/baseline_time_torch.json, when exactly one hardware has one.
  std::filesystem::path baselineTimes;
};

RunFile readKernelBenchRun(const std::filesystem::path& path, const LoadOptions& options = {},
                           const KernelBenchRunOptions& runOptions = {});

}  // namespace ks
