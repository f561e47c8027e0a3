#pragma once
// The CUDA-L2 release layout (docs/formats.md, "CUDA-L2"):
//   <root>/kernels/<gpu>_<ACC>/<M>_<N>_<K>.cu
//   <root>/eval_results/cuda_l2_<gpu>_<ACC>_speedup_<mode>.csv   (mode: offline, server)
// Opens the root (every release under kernels/), one kernels/<gpu>_<ACC>/ folder, or one M_N_K.cu inside
// such a folder; the CSVs are looked for in eval_results/ two levels above the release folder. One task per
// shape, keyed "<gpu>_<ACC>/<M>x<N>x<K>", whose one candidate is the kernel and whose measurements are every
// CSV column (baseline = the column's name, mode = offline/server).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/formats/load.h"

namespace ks {

struct CudaL2Shape {
  std::int64_t m = 0, n = 0, k = 0;
  auto operator<=>(const CudaL2Shape&) const = default;
};

// "1024_2048_64" (a file stem or a CSV `mnk` cell) -> {1024, 2048, 64}; nullopt unless three positive
// integers.
std::optional<CudaL2Shape> parseCudaL2Shape(std::string_view text);

// "h100_F32F16F16F32": a GPU name, '_', a precision string (letters and digits). Used to recognise folders.
bool isCudaL2ReleaseName(const std::string& folderName);

// Which part of a CUDA-L2 release `path` is, if any.
enum class CudaL2Input { None, Root, ReleaseFolder, Kernel };
CudaL2Input cudaL2InputKind(const std::filesystem::path& path);

// The F32F16F16F32 precision string in CUTLASS MMA order (D, A, B, C) -> the inputs' and the accumulator's
// types ("fp16", "fp32"); both empty when the string is not four types.
struct CudaL2Precision {
  std::string inputType, accumulatorType;
};
CudaL2Precision parseCudaL2Precision(const std::string& precision);

RunFile readCudaL2(const std::filesystem::path& path, const LoadOptions& options = {});
// The same, for a `path` whose kind the caller already asked cudaL2InputKind for (loadAny).
RunFile readCudaL2(const std::filesystem::path& path, const LoadOptions& options, CudaL2Input kind);

}  // namespace ks
