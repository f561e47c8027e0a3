#include "core/nvcc/build_options.h"

namespace ks::nvcc {

std::vector<std::string> torchExtensionFlags() {
  return {"-std=c++17",
          "-O3",
          "-D__CUDA_NO_HALF_OPERATORS__",
          "-D__CUDA_NO_HALF_CONVERSIONS__",
          "-D__CUDA_NO_BFLOAT16_CONVERSIONS__",
          "-D__CUDA_NO_HALF2_OPERATORS__",
          "--expt-relaxed-constexpr",
          "-DTORCH_API_INCLUDE_EXTENSION_H",
          "-Xcompiler",
          "-fPIC"};
}

}  // namespace ks::nvcc
