#pragma once
// A native task: inputs described by name, shape and dtype; a reference written as a Python expression over
// those names (`torch` in scope); a .cu candidate defining `torch::Tensor entry(torch::Tensor...)`, compiled
// by ks_nvcc with the shim of core/nvcc/native_shim.h and dlopened. Both are called through Python, so the
// two sides pay the same call overhead. Libraries stay loaded for the runner's life: unloading code whose
// kernels the CUDA runtime registered is not safe.
// Inputs: floating dtypes from torch.randn (drawn in float32, then cast), integers uniform in [0, 16), bool
// uniform, under torch.manual_seed(seed), created on the CPU and moved to the device.
#include <filesystem>

#include "core/engine/event_sink.h"
#include "core/engine/python_task.h"
#include "core/nvcc/native_shim.h"

namespace ks::engine {

struct NativeBuild {
  protocol::ExtensionBuild record;
  std::filesystem::path library;
};

// Compiles (or finds in <cacheRoot>) the candidate's library; a compile error is a `build` error. `arch`:
// nvcc -arch (options.arch); empty: the GPU's (nvcc::nativeBuildArch). A GEMM task (task.gemm) builds its
// entry with the GemmOut convention. A source that includes CuTe/CUTLASS gets $CUTLASS_DIR's headers
// (nvcc/cutlass_headers.h; a `build` error saying what was looked for when absent) and
// kCutlassBuildDeadlineS.
Outcome<NativeBuild> buildNativeCandidate(const protocol::TaskSpec& task,
                                          const protocol::CandidateSpec& candidate,
                                          const std::filesystem::path& scratch,
                                          const std::filesystem::path& cacheRoot, const std::string& arch,
                                          PhaseReporter& reporter);

using NativeShimCall = int (*)(const at::Tensor*, int, at::Tensor*, char*, std::size_t);

// dlopens `library` and returns its kscope_call, after checking the shim's ABI version and that its entry
// convention is `convention`; a `load` error of the candidate otherwise.
Outcome<NativeShimCall> loadNativeShim(const std::filesystem::path& library, nvcc::EntryConvention convention);

Outcome<ModelPair> prepareNativeTask(const protocol::TaskSpec& task, const protocol::CandidateSpec& candidate,
                                     const TaskContext& context, const std::filesystem::path& library);

}  // namespace ks::engine
