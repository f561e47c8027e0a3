#include "core/nvcc/torch_setup.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/nvcc/process_run.h"

namespace ks::nvcc {
namespace {

constexpr char kScript[] = R"(
import json, sysconfig
import torch
from torch.utils import cpp_extension
print(json.dumps({
    "include_dirs": list(cpp_extension.include_paths()) + [sysconfig.get_paths()["include"]],
    "library_dirs": list(cpp_extension.library_paths()),
    "cxx11_abi": int(torch._C._GLIBCXX_USE_CXX11_ABI),
    "torch": torch.__version__,
}))
)";

}  // namespace

TorchSetup discoverTorchSetup(const std::string& python) {
  TorchSetup setup;
  ProcessOutput out = runProcess({.argv = {python, "-c", kScript}, .deadlineSeconds = 120});
  if (!out.succeeded()) {
    // The last line of a traceback says what went wrong ("ModuleNotFoundError: No module named 'torch'").
    std::string last = out.output;
    while (!last.empty() && (last.back() == '\n' || last.back() == '\r')) last.pop_back();
    if (auto nl = last.rfind('\n'); nl != std::string::npos) last = last.substr(nl + 1);
    setup.error = python + " could not report torch's include folders (" + out.describeEnd() +
                  (last.empty() ? "" : ": " + last) +
                  "): install torch for it, or name a Python that has torch";
    return setup;
  }
  // The JSON is the last line: importing torch may print warnings before it.
  std::string text = out.output;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  auto nl = text.rfind('\n');
  nlohmann::json j =
      nlohmann::json::parse(nl == std::string::npos ? text : text.substr(nl + 1), nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    setup.error = python + " printed something other than torch's setup:\n" + out.output;
    return setup;
  }
  for (const auto& d : j.value("include_dirs", nlohmann::json::array()))
    if (d.is_string()) setup.includeDirs.emplace_back(d.get<std::string>());
  for (const auto& d : j.value("library_dirs", nlohmann::json::array()))
    if (d.is_string()) setup.libraryDirs.emplace_back(d.get<std::string>());
  setup.defines.push_back("_GLIBCXX_USE_CXX11_ABI=" + std::to_string(j.value("cxx11_abi", 1)));
  setup.torchVersion = j.value("torch", "");
  return setup;
}

bool addCudaHeaderShim(TorchSetup& setup, const std::filesystem::path& dir) {
  std::error_code ec;
  bool cudaHeaders = false;
  for (const auto& include : setup.includeDirs) {
    if (std::filesystem::exists(include / "c10/cuda/impl/cuda_cmake_macros.h", ec)) return false;
    cudaHeaders = cudaHeaders || std::filesystem::exists(include / "c10/cuda/CUDAMacros.h", ec);
  }
  if (!cudaHeaders) return false;
  std::filesystem::create_directories(dir / "c10/cuda/impl", ec);
  std::ofstream(dir / "c10/cuda/impl/cuda_cmake_macros.h")
      << "#pragma once\n// written by kscope for a compile-only check: torch was built without CUDA\n"
         "#define C10_CUDA_BUILD_SHARED_LIBS\n";
  setup.includeDirs.push_back(dir);
  return true;
}

BuildOptions compileCheckOptions(const TorchSetup& torch, const std::string& arch,
                                 const std::filesystem::path& scratch) {
  BuildOptions b;
  b.arch = arch;
  b.includeDirs = torch.includeDirs;
  b.defines = torch.defines;
  b.defines.push_back("TORCH_EXTENSION_NAME=kscope_compile_check");
  b.scratchDir = scratch;
  return b;
}

}  // namespace ks::nvcc
