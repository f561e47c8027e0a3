#pragma once
// What a build needs from its caller: the target, the include directories of torch and Python (see
// torch_setup.h), where to work, where to cache, and how long nvcc may take.
#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

namespace ks::nvcc {

struct BuildOptions {
  std::string arch = "sm_90";  // nvcc -arch; the runner passes its GPU's ("sm_" + compute capability)
  std::vector<std::filesystem::path> includeDirs;  // torch and Python headers (TorchSetup::includeDirs)
  std::vector<std::string> defines;                // e.g. "_GLIBCXX_USE_CXX11_ABI=1" (TorchSetup::defines)
  std::vector<std::string> extraFlags;             // appended to nvcc's flags, e.g. "--use_fast_math"
  std::vector<std::string> linkFlags;              // native libraries only: "-L<torch lib>", "-ltorch", …
  std::filesystem::path scratchDir;           // sources are written and compiled here (created); required
  std::filesystem::path cacheDir;             // content-addressed cache root; empty: no cache
  std::string cacheSalt;                      // anything else the output depends on, e.g. the torch version
  double deadlineSeconds = 300;               // per nvcc invocation
  const std::atomic<bool>* cancel = nullptr;  // set from another thread to stop nvcc
  std::filesystem::path nvcc;                 // empty: findNvcc()
};

// The flags torch.utils.cpp_extension.load_inline gives nvcc for CUDA sources, so that code that builds
// under torch builds here: C++17, -O3, no implicit half conversions, relaxed constexpr, -fPIC.
std::vector<std::string> torchExtensionFlags();

}  // namespace ks::nvcc
