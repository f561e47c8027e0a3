#pragma once
// Where torch's C++ headers and libraries are, asked of the Python that has torch installed (the same
// answer torch.utils.cpp_extension gives load_inline). The CLI uses it to compile candidates outside the
// runner; the runner, which embeds that Python, can ask it directly.
#include <filesystem>
#include <string>
#include <vector>

#include "core/nvcc/build_options.h"

namespace ks::nvcc {

struct TorchSetup {
  std::vector<std::filesystem::path> includeDirs;  // torch's, then Python's
  std::vector<std::filesystem::path> libraryDirs;
  std::vector<std::string> defines;  // "_GLIBCXX_USE_CXX11_ABI=1"
  std::string torchVersion;          // "2.11.0+cu130": a good BuildOptions::cacheSalt
  std::string error;                 // why it could not be found; empty on success
  bool found() const { return error.empty(); }
};

// Runs `python -c …` (deadline 120 s: importing torch can be slow on a cold disk).
TorchSetup discoverTorchSetup(const std::string& python = "python3");

// A CPU build of torch (Debian's libtorch) ships c10/cuda's headers without the one CMake generates for them
// (c10/cuda/impl/cuda_cmake_macros.h), so every source that includes <ATen/cuda/CUDAContext.h> fails there on
// a missing header that a CUDA build of torch has. For compile-only checks: writes that header into `dir`
// and adds `dir` to setup.includeDirs when the headers lack it; otherwise does nothing. Returns whether it
// did.
bool addCudaHeaderShim(TorchSetup& setup, const std::filesystem::path& dir);

// The options of a compile-only check of a Python program's load_inline sources (buildPythonSources) for
// `arch` against `torch`'s headers, as load_inline would build them: what `kscope check --compile` and the
// GUI's Compile use. `scratch` is the folder the sources are written to.
BuildOptions compileCheckOptions(const TorchSetup& torch, const std::string& arch,
                                 const std::filesystem::path& scratch);

}  // namespace ks::nvcc
