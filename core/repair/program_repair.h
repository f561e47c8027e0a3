#pragma once
// Mechanical repairs of a Python program whose load_inline CUDA does not build on today's torch/CUDA. Each
// repair removes a cause of build_cause.h and never changes what the kernel computes:
//   declare-bound-functions  functions= names a host function cpp_sources never declares: the declaration,
//                            copied from its definition in cuda_sources, is added to cpp_sources;
//   drop-generated-module    the sources define PYBIND11_MODULE: functions= (which makes torch generate a
//                            second module) becomes None;
//   kernel-launcher          functions= names a __global__ kernel, called from Python as a CuPy-style raw
//                            kernel: mod.kernel(grid=..., block=..., args=[...], shared_mem=/shared=,
//                            stream=), the arguments positional with grid=/block=, or mod.kernel(grid, block,
//                            [shared,] *arguments) (told apart by the kernel's parameter count). A host
//                            launcher for those forms is added to the call's CUDA source (joined to it with
//                            `+`) and bound under the kernel's name in a PYBIND11_MODULE of its own
//                            (functions= becomes None); it launches the unchanged kernel with the given grid,
//                            block, shared memory and stream (the current one by default), each argument
//                            converted to the kernel's parameter type (tensors and data_ptr() integers to
//                            pointers, None to nullptr);
//   removed-tensor-api       AT_DISPATCH_*(x.type(), ...) -> x.scalar_type(); .data<T>() -> .data_ptr<T>();
//                            AT_CHECK -> TORCH_CHECK; .type().is_cuda() -> .is_cuda();
//   missing-header           at::cuda::getCurrentCUDAStream without <ATen/cuda/CUDAContext.h>: the include;
//   cuda-in-cpp-sources      CUDA code (__global__, <<<>>>, threadIdx) passed as cpp_sources= with no
//                            cuda_sources: it becomes cuda_sources=, and cpp_sources "";
//   arch-flags               -arch=sm_XX / -gencode=arch=compute_XX,code=sm_XX in
//   extra_cuda_cflags/extra_cflags
//                            -> the given architecture (the local GPU's).
// The original text is never modified: the result holds a new program, the list of repairs and their diff.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::repair {

enum class RepairKind {
  DeclareBoundFunctions,
  DropGeneratedModule,
  KernelLauncher,
  RemovedTensorApi,
  MissingHeader,
  ArchFlags,
  CudaInCppSources,
};
const char* repairKindName(RepairKind k);  // "declare-bound-functions", ... (the protocol's spelling)
std::optional<RepairKind> repairKindFromName(std::string_view name);

struct Repair {
  RepairKind kind = RepairKind::RemovedTensorApi;
  std::string what;        // "declared torch::Tensor forward(torch::Tensor x) in cpp_sources"
  std::vector<int> lines;  // lines of the original program it changed (1-based)
  bool operator==(const Repair&) const = default;
};

struct RepairOptions {
  std::string arch = "sm_90a";  // what -arch / -gencode flags become: the local GPU's ("sm_" + capability)
  std::string fileName = "candidate.py";  // the name the diff shows
};

struct ProgramRepair {
  std::string program;                   // the repaired program; the original when nothing was repaired
  std::vector<Repair> repairs;           // in the order of the lines they change
  std::vector<std::string> notRepaired;  // causes seen that no mechanical repair fixes, and why
  std::string diff;                      // unified diff original -> repaired; empty when unchanged
  bool changed() const { return !repairs.empty(); }
};

ProgramRepair repairProgram(const std::string& program, const RepairOptions& options = {});

// {"kind": "kernel-launcher", "what": "...", "lines": [12, 40]}
nlohmann::json toJson(const Repair& r);
std::optional<Repair> repairFromJson(const nlohmann::json& j);
// One line per repair: "kernel-launcher (lines 12, 40): ..."
std::string describeRepairs(const std::vector<Repair>& repairs);

}  // namespace ks::repair
