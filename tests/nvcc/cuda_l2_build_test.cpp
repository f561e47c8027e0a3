// One real CUDA-L2 H100 kernel compiled as the runner compiles it: the GemmOut shim, the real torch headers,
// CUTLASS 4.2.1's headers (unpacked from ../shared/third_party, or $CUTLASS_DIR), sm_90a. One CuTe kernel is
// 1-4 minutes of nvcc on a free core and outlasted 25 minutes on the loaded 2-core CI machine, so it runs
// only when asked (KSCOPE_SLOW_BUILD_TESTS=1; bench/gpu/cuda-l2-sample.sh builds 70 on the H100 machine).
// Skipped with the reason otherwise, and when nvcc, torch, CUTLASS or the release is missing. Nothing runs: this machine has no GPU (the library links with torch's symbols left
// to the runner that loads it).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "core/nvcc/cutlass_headers.h"
#include "core/nvcc/native_build.h"
#include "core/nvcc/process_run.h"
#include "core/nvcc/torch_setup.h"
#include "tests/nvcc/build_test_support.h"
#include "ks_test_paths.h"

namespace ks::nvcc {
namespace {

// $CUTLASS_DIR when it holds the headers, else the release tarball unpacked into a fresh folder.
CutlassHeaders testCutlass(std::string& why) {
  if (const char* dir = std::getenv(kCutlassDirVariable)) {
    CutlassHeaders h = findCutlassHeaders(dir);
    if (h.found()) return h;
  }
  const std::filesystem::path tarball =
      std::filesystem::path(KS_SHARED_DIR) / "third_party/cutlass-4.2.1-headers.tar.gz";
  if (!std::filesystem::exists(tarball)) {
    why = "CUTLASS not found: neither $CUTLASS_DIR nor " + tarball.string();
    return {};
  }
  const std::filesystem::path root = test::freshDir("cutlass");
  ProcessOutput out = runProcess({.argv = {"tar", "-xzf", tarball.string(), "-C", root.string()},
                                  .deadlineSeconds = 120});
  if (!out.succeeded()) {
    why = "unpacking " + tarball.string() + ": tar " + out.describeEnd();
    return {};
  }
  CutlassHeaders h = findCutlassHeaders(root.string());
  if (!h.found()) why = h.error;
  return h;
}

TEST(CudaL2Build, ReleaseKernelCompilesForSm90aWithTheGemmShim) {
  if (const char* slow = std::getenv("KSCOPE_SLOW_BUILD_TESTS"); !slow || std::string(slow) != "1")
    GTEST_SKIP() << "a CuTe kernel takes minutes of nvcc (over 25 on a loaded 2-core machine): set "
                    "KSCOPE_SLOW_BUILD_TESTS=1 to run it; bench/gpu/cuda-l2-sample.sh builds 70 on the GPU machine";
  KS_REQUIRE_NVCC();
  const std::filesystem::path kernelFile =
      std::filesystem::path(KS_SHARED_DIR) / "datasets/cuda-l2/kernels/h100_F32F16F16F32/1024_1024_1024.cu";
  if (!std::filesystem::exists(kernelFile)) GTEST_SKIP() << kernelFile << " is not there";
  std::string why;
  const CutlassHeaders cutlass = testCutlass(why);
  if (!cutlass.found()) GTEST_SKIP() << why;
  TorchSetup torch = discoverTorchSetup();
  if (!torch.found()) torch = discoverTorchSetup("/usr/bin/python3");  // the build's Python (packaging/)
  if (!torch.found()) GTEST_SKIP() << torch.error;

  std::ifstream in(kernelFile, std::ios::binary);
  const std::string code((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_TRUE(includesCutlass(code));
  NativeKernel kernel{code, "1024_1024_1024.cu", "cuda_l2_h100_fp32", 0};
  kernel.convention = EntryConvention::GemmOut;
  BuildOptions o;
  o.arch = "sm_90a";
  o.includeDirs = torch.includeDirs;
  o.defines = torch.defines;
  o.cacheSalt = torch.torchVersion;
  o.scratchDir = test::freshDir("scratch");
  o.cacheDir = test::freshDir("cache");
  o.deadlineSeconds = 3600;  // minutes on a 16-core machine, longer on a shared 2-core one
  addCutlassToBuild(o, cutlass);
  BuildResult r = buildNativeLibrary(kernel, o);
  ASSERT_TRUE(r.ok) << r.message << "\n" << r.log;
  std::printf("built %s in %.0f s\n", kernelFile.filename().c_str(), r.compileSeconds);
  ASSERT_FALSE(r.kernels.empty()) << "no kernel reported by ptxas:\n" << r.log;
  bool hgemm = false;
  for (const auto& k : r.kernels) {
    EXPECT_EQ(k.arch, "sm_90a") << k.name;
    EXPECT_GT(k.registers, 0) << k.name;
    hgemm = hgemm || k.name.find("cuda_l2_h100_fp32_kernel") != std::string::npos;
  }
  EXPECT_TRUE(hgemm) << "ptxas did not list the HGEMM kernel";
  EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), "--expt-extended-lambda"), r.flags.end());
  EXPECT_NE(std::find(r.flags.begin(), r.flags.end(), "--use_fast_math"), r.flags.end());  // as CUDA-L2 builds it

  BuildResult again = buildNativeLibrary(kernel, o);  // the cache: no second compile of minutes
  EXPECT_TRUE(again.cacheHit);
  EXPECT_EQ(again.library, r.library);
}

}  // namespace
}  // namespace ks::nvcc
