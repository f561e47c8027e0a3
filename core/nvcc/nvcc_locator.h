#pragma once
// Finding nvcc: $CUDA_HOME/bin/nvcc, then /usr/local/cuda/bin/nvcc, then each directory of $PATH.
#include <filesystem>
#include <string>

namespace ks::nvcc {

struct NvccLocation {
  std::filesystem::path path;  // empty when not found
  std::string error;           // where it looked, when not found
  bool found() const { return !path.empty(); }
};

NvccLocation findNvcc();

}  // namespace ks::nvcc
