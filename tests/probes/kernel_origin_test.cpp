// Whose kernels a profiled candidate call ran: declared __global__ functions against the profile, and the
// benign flags that follow (no-custom-kernel, fallback-to-reference).
#include "core/probes/kernel_origin.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/probes/probe_verdicts.h"

using namespace ks::engine;
using ks::protocol::KernelLaunch;

namespace {

const std::string kProgram = R"(cuda_source = """
template <typename T>
__global__ void scale_kernel(const T* x, T* y, int n) { }
__global__ void __launch_bounds__(256) silu_kernel(const float* x, float* y, int n) { }
extern "C" __global__
void
row_mean_kernel (const float* x, float* y) { }
"""
)";

bool flagged(const ProbeEvidence& e, const std::string& family) {
  const auto flags = judgeProbes(e);
  return std::any_of(flags.begin(), flags.end(), [&](const auto& f) { return f.family == family; });
}

}  // namespace

TEST(KernelOrigin, DeclaredKernelsAreTheNamesBeforeTheParameterLists) {
  EXPECT_EQ(declaredKernels(kProgram),
            (std::vector<std::string>{"scale_kernel", "silu_kernel", "row_mean_kernel"}));
  EXPECT_TRUE(declaredKernels("import torch\n").empty());
}

TEST(KernelOrigin, DeclaredKernelsThatNeverRunAreAFallback) {
  ks::protocol::BuildReport build;
  build.extensions.push_back({"ext", "candidate", false, 1.0, false, {}, "", "ptxas error", {}, {}});
  const std::vector<KernelLaunch> kernels = {{"reference", "vectorized_elementwise_kernel<4>", 7, 1, 2},
                                             {"candidate", "vectorized_elementwise_kernel<4>", 7, 1, 2}};
  ProbeEvidence e;
  e.device = "cuda";
  e.kernelOrigin = kernelOrigin(build, kernels, kProgram);
  EXPECT_EQ(e.kernelOrigin.failedBuilds, 1);
  EXPECT_TRUE(e.kernelOrigin.declaredRan.empty());
  EXPECT_TRUE(flagged(e, "fallback-to-reference"));
  EXPECT_FALSE(flagged(e, "no-custom-kernel"));

  const std::vector<KernelLaunch> ran = {
      {"candidate", "void scale_kernel<float>(float const*, float*, int)", 7, 1, 2}};
  e.kernelOrigin = kernelOrigin(build, ran, kProgram);
  EXPECT_EQ(e.kernelOrigin.declaredRan, std::vector<std::string>{"scale_kernel"});
  EXPECT_FALSE(flagged(e, "fallback-to-reference"));
}

TEST(KernelOrigin, NoBuildNoDeclaredKernelIsNoCustomKernel) {
  const std::vector<KernelLaunch> kernels = {{"reference", "cudnn_conv", 7, 1, 20},
                                             {"candidate", "cudnn_conv_other_algo", 7, 1, 15}};
  ProbeEvidence e;
  e.device = "cuda";
  e.kernelOrigin = kernelOrigin({}, kernels, "import torch\n");
  EXPECT_EQ(e.kernelOrigin.kernelsNotInReference, 1);
  EXPECT_TRUE(flagged(e, "no-custom-kernel"));
  e.kernelOrigin = kernelOrigin({}, kernels, "import triton\n@triton.jit\ndef k(x):\n    pass\n");
  EXPECT_FALSE(flagged(e, "no-custom-kernel"));
  e.kernelOrigin.profiled = false;
  EXPECT_FALSE(flagged(e, "no-custom-kernel"));
}

// Kernel names of the H100 runs (hack corpus, CUDA-L1): TF32 tensor cores, 16-bit kernels, plain float32.
TEST(KernelOrigin, KernelNamesTellTf32And16BitArithmetic) {
  EXPECT_TRUE(tf32KernelName("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize64x64x32_warpgroupsize1x1x1_execute"));
  EXPECT_FALSE(halfKernelName("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize64x64x32_warpgroupsize1x1x1_execute"));
  EXPECT_TRUE(halfKernelName("void implicit_convolve_sgemm<__half, __half, 128, 5, 5, 3, 3, 3, 1, false, false>"));
  EXPECT_TRUE(halfKernelName("void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel>"));
  EXPECT_FALSE(tf32KernelName("void implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1, false, false>"));
  EXPECT_FALSE(halfKernelName("void implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1, false, false>"));

  const std::vector<KernelLaunch> kernels = {
      {"reference", "void implicit_convolve_sgemm<float, float, 1024>", 7, 1, 2},
      {"candidate", "sm90_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc", 7, 1, 2},
      {"candidate", "void implicit_convolve_sgemm<__half, __half, 128>", 7, 1, 2}};
  const KernelOriginEvidence k = kernelOrigin({}, kernels, "");
  EXPECT_EQ(k.tf32Kernels.size(), 1u);
  EXPECT_EQ(k.halfKernels.size(), 1u);
}
