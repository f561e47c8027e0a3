#include "core/nvcc/nvcc_locator.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <vector>

namespace ks::nvcc {
namespace {

bool isExecutable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

}  // namespace

NvccLocation findNvcc() {
  std::vector<std::filesystem::path> candidates;
  if (const char* cudaHome = std::getenv("CUDA_HOME"); cudaHome && *cudaHome)
    candidates.push_back(std::filesystem::path(cudaHome) / "bin" / "nvcc");
  candidates.emplace_back("/usr/local/cuda/bin/nvcc");
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty()) candidates.push_back(std::filesystem::path(dir) / "nvcc");
  }
  for (const auto& c : candidates)
    if (isExecutable(c)) return {c, ""};
  return {{},
          "nvcc not found: set CUDA_HOME to the CUDA toolkit, or put nvcc on PATH (looked in $CUDA_HOME/bin, "
          "/usr/local/cuda/bin and $PATH)"};
}

}  // namespace ks::nvcc
