#pragma once
// A native .cu kernel compiled into a shared library the runner can dlopen: the .cu plus the generated
// shim of native_shim.h, `nvcc -shared -Xcompiler -fPIC -Xptxas -v`, cached by content.
#include <string>

#include "core/nvcc/build_options.h"
#include "core/nvcc/build_result.h"
#include "core/nvcc/native_shim.h"

namespace ks::nvcc {

struct NativeKernel {
  std::string code;                    // the .cu text
  std::string fileName = "kernel.cu";  // what diagnostics call it (the file the user opened)
  std::string entry;                   // the C++ function over torch::Tensor to call
  int arity = 0;                       // how many tensors it takes (the task's inputs)
  EntryConvention convention = EntryConvention::Returns;  // GemmOut: void entry(a, b, b_col_major, c)
};

// On success result.library is the shared library (inside the cache when options.cacheDir is set,
// otherwise in options.scratchDir).
BuildResult buildNativeLibrary(const NativeKernel& kernel, const BuildOptions& options);

}  // namespace ks::nvcc
