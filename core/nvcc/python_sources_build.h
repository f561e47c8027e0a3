#pragma once
// Compile-only of the CUDA/C++ sources a Python program builds with load_inline: each EmbeddedSource is
// written to the scratch folder as <name>.cu (CUDA) or <name>.cpp (C++), pre-included with what load_inline
// prepends (torch/types.h + cuda.h + cuda_runtime.h; torch/extension.h for C++), and compiled with
// `nvcc -c` and `-Xptxas -v`. Diagnostics carry the Python line of the program they came from; ptxas
// reports each kernel's registers, shared memory, spills and stack. Nothing is loaded or run.
#include <string>

#include "core/nvcc/build_options.h"
#include "core/nvcc/build_result.h"

namespace ks::nvcc {

// A program with no embedded sources builds trivially (ok, no kernels, message says so).
BuildResult buildPythonSources(const std::string& pythonProgram, const BuildOptions& options);

}  // namespace ks::nvcc
