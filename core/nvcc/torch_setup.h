#pragma once
// Where torch's C++ headers and libraries are, asked of the Python that has torch installed (the same
// answer torch.utils.cpp_extension gives load_inline). The CLI uses it to compile candidates outside the
// runner; the runner, which embeds that Python, can ask it directly.
#include <filesystem>
#include <string>
#include <vector>

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

}  // namespace ks::nvcc
