#pragma once
// Run on a machine without a GPU (docs/architecture.md, "Run without a GPU"): a program that builds CUDA
// with load_inline is compiled with nvcc alone for a named or default architecture instead of being run,
// because torch's own build would fail in its architecture detection before nvcc ran (no GPU, no
// TORCH_CUDA_ARCH_LIST) and the run would time the PyTorch fallback, or end in that failure, at the line
// of the load_inline call. The one rule and the one compile path for the GUI's Run and `kscope run`; `kscope
// check --compile` and the GUI's Compile take the same path.
#include <atomic>
#include <string>
#include <string_view>

#include "core/nvcc/build_result.h"
#include "core/nvcc/torch_setup.h"
#include "core/repair/build_cause.h"

namespace ks::runs {

// The program builds CUDA with load_inline (an embedded source of language "cuda").
bool buildsCudaExtension(const std::string& program);

// Whether Run compiles `program` instead of running it: the runner said hello from a machine without a GPU
// (`runnerDevice`, its hello's device, is not "cuda"), the program builds CUDA, and the user did not ask
// for the run anyway (`runAnyway`: the GUI's Device cpu, `kscope run --time-fallback`).
bool compilesInsteadOfRunning(std::string_view runnerDevice, const std::string& program, bool runAnyway);

// torch's headers for a compile: asked of `python`, and of /usr/bin/python3 when `python` is the default
// "python3" and has no torch (a virtual environment without it on PATH).
nvcc::TorchSetup torchForCompile(const std::string& python = "python3");

struct ProgramCompile {
  std::string arch;
  nvcc::BuildResult result;
  repair::BuildFailure cause;  // BuildCause::None when it compiled
  std::string error;           // why nothing could be compiled (no torch headers); `result` is then empty
};

// Compiles the sources `program` embeds for load_inline with nvcc alone (core/nvcc/python_sources_build.h)
// for `arch`, against `torch`'s headers (a CPU torch's missing CUDA header supplied: addCudaHeaderShim), in
// a scratch folder of its own under the temporary folder, removed afterwards. Nothing is loaded or run.
// `cancel`, when given and set from another thread, stops nvcc (its process group is killed).
ProgramCompile compileProgram(const std::string& program, const std::string& arch, nvcc::TorchSetup torch,
                              const std::atomic<bool>* cancel = nullptr);
// The same, finding torch first (torchForCompile).
ProgramCompile compileProgram(const std::string& program, const std::string& arch,
                              const std::string& python = "python3", const std::atomic<bool>* cancel = nullptr);

// For a person, the words the GUI's status bar and `kscope run` use: "compiled for sm_90a: 1 error
// (source-error); cuda_source.cu:5 (Python line 5): error: …", "compiled for sm_90a without errors: 1
// kernel (scale: 12 registers, 0 B shared, no spills), 31 s", or "nothing compiled for sm_90a: no torch
// headers: …".
std::string compileSummary(const nvcc::BuildResult& result, const std::string& error, const std::string& arch,
                           const std::string& program);
std::string compileSummary(const ProgramCompile& compiled, const std::string& program);

}  // namespace ks::runs
