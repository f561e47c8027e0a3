#include "core/nvcc/kernel_resources.h"

#include <gtest/gtest.h>

#include "tests/nvcc/build_test_support.h"

namespace ks::nvcc {
namespace {

TEST(PtxasResources, RegistersSpillsStackSharedAndTemplates) {
  auto kernels = parsePtxasResources(test::readFixture("nvcc/resources.ptxas.txt"));
  ASSERT_EQ(kernels.size(), 3u);
  EXPECT_EQ(kernels[0].name, "void scale_kernel<double, 8>(double*, double const*, double, int)");
  EXPECT_EQ(kernels[0].mangledName, "_Z12scale_kernelIdLi8EEvPT_PKS0_S0_i");
  EXPECT_EQ(kernels[0].arch, "sm_90");
  EXPECT_EQ(kernels[0].registers, 12);
  EXPECT_EQ(kernels[1].registers, 10);

  const KernelResources& heavy = kernels[2];
  EXPECT_EQ(heavy.name, "heavy(float*, float const*, int)");
  EXPECT_EQ(heavy.registers, 32);
  EXPECT_EQ(heavy.barriers, 1);
  EXPECT_EQ(heavy.stackBytes, 96);
  EXPECT_EQ(heavy.spillStores, 112);
  EXPECT_EQ(heavy.spillLoads, 112);
  EXPECT_EQ(heavy.sharedBytes, 1024);
}

TEST(PtxasResources, OneEntryPerArchitectureAndNoDeviceFunctions) {
  auto kernels = parsePtxasResources(test::readFixture("nvcc/multi_arch.ptxas.txt"));
  ASSERT_EQ(kernels.size(), 4u);  // plain_c and conv, for sm_80 and sm_90; helper() is not an entry
  EXPECT_EQ(kernels[0].name, "plain_c");
  EXPECT_EQ(kernels[0].arch, "sm_80");
  EXPECT_EQ(kernels[0].registers, 8);
  EXPECT_EQ(kernels[0].constantBytes, 360);
  EXPECT_EQ(kernels[1].name, "conv(float*, float const*, int)");
  EXPECT_EQ(kernels[1].arch, "sm_80");
  EXPECT_EQ(kernels[1].registers, 28);
  EXPECT_EQ(kernels[1].stackBytes, 80);
  EXPECT_EQ(kernels[1].constantBytes, 372);
  EXPECT_EQ(kernels[3].arch, "sm_90");
  EXPECT_EQ(kernels[3].registers, 31);
  EXPECT_EQ(kernels[3].stackBytes, 80);
}

TEST(PtxasResources, ReportsTheKernelEvenWhenPtxasRejectsIt) {
  auto kernels = parsePtxasResources(test::readFixture("nvcc/too_much_shared.ptxas.txt"));
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "too_big(float*)");
  EXPECT_EQ(kernels[0].sharedBytes, 280000);
}

TEST(PtxasResources, OlderFormatWithoutBarriers) {
  auto kernels = parsePtxasResources(
      "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_70'\n"
      "ptxas info    : Function properties for _Z1kPf\n"
      "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 40 registers, 48 bytes smem, 352 bytes cmem[0], 8 bytes cmem[2]\n");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(kernels[0].name, "k(float*)");
  EXPECT_EQ(kernels[0].registers, 40);
  EXPECT_EQ(kernels[0].sharedBytes, 48);
  EXPECT_EQ(kernels[0].constantBytes, 360);
  EXPECT_EQ(kernels[0].spillStores, 4);
}

}  // namespace
}  // namespace ks::nvcc
