#pragma once
// The good-kernels layout (Stanford CRFM's released kernels; docs/formats.md, "good-kernels"): a folder of
// task folders, each with ref.py (KernelBench-style Model, get_inputs, get_init_inputs) and src.py
// (ModelNew), or one such task folder. One task per folder, keyed by the folder's name ("LayerNorm"); its
// one candidate is src.py. Recorded numbers come from a results.csv or results.json beside the two files;
// without one the task has none, and its note says so.
#include <filesystem>

#include "core/formats/load.h"

namespace ks {

enum class GoodKernelsInput { None, Collection, TaskFolder };

// TaskFolder: `path` holds ref.py and src.py. Collection: it does not, but a sub-folder does.
GoodKernelsInput goodKernelsInputKind(const std::filesystem::path& path);

RunFile readGoodKernels(const std::filesystem::path& path, const LoadOptions& options = {});
// The same, for a `path` whose kind the caller already asked goodKernelsInputKind for (loadAny).
RunFile readGoodKernels(const std::filesystem::path& path, const LoadOptions& options, GoodKernelsInput kind);

}  // namespace ks
