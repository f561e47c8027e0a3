// Compile-only of real CUDA-L1 programs against the real torch headers: the prelude, flags and include
// folders must be what load_inline uses, or kernels that built for CUDA-L1 would fail here. Skipped where
// nvcc, torch (python3) or the dataset is missing.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/nvcc/python_sources_build.h"
#include "core/nvcc/torch_setup.h"
#include "tests/nvcc/build_test_support.h"
#include "ks_test_paths.h"

namespace ks::nvcc {
namespace {

constexpr int kPrograms = 3;

TEST(TorchBuild, CudaL1ProgramsCompileAgainstTorch) {
  KS_REQUIRE_NVCC();
  const std::filesystem::path dataset = std::filesystem::path(KS_SHARED_DIR) / "datasets/cuda-l1/h100.jsonl";
  if (!std::filesystem::exists(dataset)) GTEST_SKIP() << dataset << " is not there";
  TorchSetup torch = discoverTorchSetup();
  if (!torch.found()) GTEST_SKIP() << torch.error;

  BuildOptions o;
  o.includeDirs = torch.includeDirs;
  o.defines = torch.defines;
  o.cacheSalt = torch.torchVersion;
  o.deadlineSeconds = 300;
  std::ifstream in(dataset);
  int built = 0;
  for (std::string line; built < kPrograms && std::getline(in, line);) {
    auto j = nlohmann::json::parse(line);
    if (!j["custom_code"].is_string()) continue;
    const std::string program = j["custom_code"];
    if (program.find("cuda_sources") == std::string::npos) continue;  // C++-only programs have no kernels
    const std::string task =
        "L" + std::to_string(j["level_id"].get<int>()) + "/" + std::to_string(j["task_id"].get<int>());
    o.scratchDir = test::freshDir("program-" + std::to_string(built));
    BuildResult r = buildPythonSources(program, o);
    EXPECT_TRUE(r.ok) << task << ": " << r.message << "\n" << r.log;
    EXPECT_FALSE(r.kernels.empty()) << task << ": no kernel reported by ptxas";
    for (const auto& k : r.kernels) EXPECT_GT(k.registers, 0) << task << " " << k.name;
    ++built;
  }
  EXPECT_EQ(built, kPrograms);
}

}  // namespace
}  // namespace ks::nvcc
