// The runner's cuBLAS/cuBLASLt baselines (core/engine/cublas_baselines.cpp) are built only into a runner whose
// torch has CUDA; here, where there may be no such torch, nvcc compile-checks the file against the CUDA
// toolkit's own headers (it uses CUDA's C API only), so a CPU machine with nvcc still catches a broken
// baseline before the GPU machine does. Skipped, with the reason, where nvcc is not.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/nvcc/nvcc_locator.h"
#include "core/nvcc/process_run.h"
#include "tests/nvcc/build_test_support.h"
#include "ks_test_paths.h"

namespace ks::nvcc {
namespace {

TEST(CublasBaselinesCompile, TheBaselinesCompileWithNvccAgainstTheCudaHeaders) {
  const NvccLocation nvcc = findNvcc();
  if (!nvcc.found()) GTEST_SKIP() << "no nvcc, the cuBLAS baselines are not compile-checked: " << nvcc.error;
  const std::filesystem::path out = test::freshDir("cublas-baselines") / "cublas_baselines.o";
  ProcessSpec spec;
  // C++17: nvcc 13's front end stops with an internal error on GCC 12's <bits/stl_construct.h> in C++20 mode.
  spec.argv = {nvcc.path.string(), "-std=c++17", "-x", "cu", "-c", "-I", KS_SOURCE_DIR,
               std::string(KS_SOURCE_DIR) + "/core/engine/cublas_baselines.cpp", "-o", out.string(),
               "-Xcompiler", "-Wall,-Wextra,-Werror", "-Werror", "all-warnings"};
  spec.deadlineSeconds = 900;  // a loaded 2-core machine
  const ProcessOutput r = runProcess(spec);
  ASSERT_TRUE(r.succeeded()) << r.describeEnd() << "\n" << r.output;
  EXPECT_TRUE(std::filesystem::exists(out));
  EXPECT_GT(std::filesystem::file_size(out), 0u);
}

}  // namespace
}  // namespace ks::nvcc
