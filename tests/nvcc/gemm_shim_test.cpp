// What a CUDA-L2 kernel's build needs besides the shim of native_build_test: the GemmOut entry convention,
// CUTLASS's headers from CUTLASS_DIR, and the architecture rule (sm_90a on an H100).
#include <gtest/gtest.h>

#include <fstream>

#include "core/nvcc/cutlass_headers.h"
#include "core/nvcc/gpu_arch.h"
#include "core/nvcc/native_shim.h"
#include "tests/nvcc/build_test_support.h"

namespace ks::nvcc {
namespace {

bool has(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

TEST(GemmShim, OutParameterEntryGetsAnOutputTheShimAllocates) {
  const std::string shim = nativeShimSource("kernel.cu", "cuda_l2_h100_fp32", 0, EntryConvention::GemmOut);
  EXPECT_TRUE(has(shim, "kscope_entry_arity() { return 3; }")) << shim;
  EXPECT_TRUE(has(shim, "kscope_entry_convention() { return 1; }")) << shim;
  EXPECT_TRUE(has(shim, "if (count != 3)")) << shim;
  EXPECT_TRUE(has(shim, "at::Tensor c = at::empty({inputs[0].size(0), inputs[1].size(1)}, inputs[0].options());"))
      << shim;
  EXPECT_TRUE(has(shim, "(cuda_l2_h100_fp32)(inputs[0], inputs[1], inputs[2], c);")) << shim;
  EXPECT_TRUE(has(shim, "*output = c;")) << shim;
  EXPECT_TRUE(has(shim, "std::is_void_v<decltype((cuda_l2_h100_fp32)(inputs[0], inputs[1], inputs[2], c))>"))
      << shim;
  EXPECT_EQ(shimArity(EntryConvention::GemmOut, 7), 3);
  EXPECT_EQ(shimArity(EntryConvention::Returns, 2), 2);

  // The returning convention is unchanged but for the convention symbol.
  const std::string plain = nativeShimSource("kernel.cu", "add", 2);
  EXPECT_TRUE(has(plain, "kscope_entry_convention() { return 0; }")) << plain;
  EXPECT_TRUE(has(plain, "*output = (add)(inputs[0], inputs[1]);")) << plain;
  EXPECT_FALSE(has(plain, "at::empty")) << plain;
}

TEST(GemmShim, ArchitectureRuleAddsTheHopperSuffixOnNinePointZeroOnly) {
  EXPECT_EQ(nativeBuildArch(9, 0), "sm_90a");
  EXPECT_EQ(nativeBuildArch(8, 0), "sm_80");
  EXPECT_EQ(nativeBuildArch(8, 9), "sm_89");
  EXPECT_EQ(nativeBuildArch(10, 0), "sm_100");
}

TEST(CutlassHeaders, FoundWhereCuteTensorIsAndMissingSaysWhatWasLookedFor) {
  const std::filesystem::path root = test::freshDir("cutlass");
  CutlassHeaders unset = findCutlassHeaders("");
  EXPECT_FALSE(unset.found());
  EXPECT_TRUE(has(unset.error, "CUTLASS_DIR is not set")) << unset.error;

  CutlassHeaders missing = findCutlassHeaders(root.string());
  EXPECT_FALSE(missing.found());
  EXPECT_TRUE(has(missing.error, (root / "include/cute/tensor.hpp").string())) << missing.error;
  EXPECT_TRUE(has(missing.error, "$CUTLASS_DIR/include/cute/tensor.hpp")) << missing.error;

  std::filesystem::create_directories(root / "include/cute");
  std::ofstream(root / "include/cute/tensor.hpp") << "#pragma once\n";
  CutlassHeaders found = findCutlassHeaders(root.string());
  ASSERT_TRUE(found.found()) << found.error;
  EXPECT_EQ(found.includeDirs, (std::vector<std::filesystem::path>{root / "include"}));

  std::filesystem::create_directories(root / "tools/util/include");
  found = findCutlassHeaders(root.string());
  EXPECT_EQ(found.includeDirs,
            (std::vector<std::filesystem::path>{root / "include", root / "tools/util/include"}));
}

// CuTe converts float accumulators to half implicitly: after torch's -D__CUDA_NO_HALF_* flags, a CUTLASS
// build undefines them (9 of 20 CUDA-L2 kernels failed on the H100 machine without it). It also builds with
// fast math, as CUDA-L2 builds its kernels.
TEST(CutlassHeaders, ABuildWithThemAllowsHalfConversionsAfterTorchsFlags) {
  BuildOptions o;
  o.extraFlags = {"-lineinfo"};
  CutlassHeaders h;
  h.includeDirs = {"/opt/cutlass/include"};
  addCutlassToBuild(o, h);
  EXPECT_EQ(o.includeDirs.back(), std::filesystem::path("/opt/cutlass/include"));
  EXPECT_EQ(o.extraFlags, (std::vector<std::string>{"-lineinfo", "--expt-extended-lambda", "--use_fast_math",
                                                     "-U__CUDA_NO_HALF_OPERATORS__",
                                                     "-U__CUDA_NO_HALF_CONVERSIONS__",
                                                     "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
                                                     "-U__CUDA_NO_HALF2_OPERATORS__"}));
}

TEST(CutlassHeaders, IncludesCutlassReadsIncludeLinesOnly) {
  EXPECT_TRUE(includesCutlass("#include <cuda.h>\n#include <cute/tensor.hpp>\n"));
  EXPECT_TRUE(includesCutlass("  #  include \"cutlass/gemm/device/gemm.h\"\n"));
  EXPECT_FALSE(includesCutlass("// uses cute/tensor.hpp ideas\n#include <torch/types.h>\n"));
  EXPECT_FALSE(includesCutlass("#include <cuda_fp16.h>\nint cute = 1;\n"));
}

}  // namespace
}  // namespace ks::nvcc
