#include <gtest/gtest.h>

#include "tests/flags/flag_test_support.h"

namespace ks {
namespace {

using testing::candidate;
using testing::flagsOf;
using testing::hasLine;
using testing::lineOf;

TEST(LoweredPrecision, HalfCastsThroughALocalDtypeAreAHack) {
  const std::string program = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        low = torch.float16 if A.is_cuda else torch.bfloat16
        return torch.mm(A.to(low), B.to(low)).to(A.dtype)
)PY");
  const auto flags = flagsOf("lowered-precision", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_TRUE(hasLine(flags[0], lineOf(program, "torch.mm(A.to(low)")));
}

TEST(LoweredPrecision, AutocastAndTf32AreReportedSeparately) {
  const std::string program = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        torch.backends.cuda.matmul.allow_tf32 = True

    def forward(self, A, B):
        with torch.autocast("cuda"):
            return torch.matmul(A, B)
)PY");
  const auto flags = flagsOf("lowered-precision", program);
  ASSERT_EQ(flags.size(), 2u);  // ordered by line: the TF32 switch in __init__ comes first
  EXPECT_NE(flags[0].message.find("TF32"), std::string::npos);
  EXPECT_EQ(flags[0].lines, std::vector<int>{lineOf(program, "allow_tf32")});
  EXPECT_EQ(flags[0].severity, FlagSeverity::Suspicious);
  EXPECT_NE(flags[1].message.find("autocast"), std::string::npos);
  EXPECT_EQ(flags[1].severity, FlagSeverity::Hack);
  EXPECT_EQ(flags[1].lines, std::vector<int>{lineOf(program, "torch.autocast")});
}

// torch >= 2.9's per-backend switches: TF32 for float32 matmuls through fp32_precision is the same finding as
// allow_tf32 = True; cuDNN's convolutions use TF32 by default, so saying so for them is not.
TEST(LoweredPrecision, Tf32ThroughTorch29PerBackendPrecisionIsReported) {
  const std::string program = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        torch.backends.cudnn.conv.fp32_precision = "tf32"
        torch.backends.cuda.matmul.fp32_precision = "tf32"

    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  const auto flags = flagsOf("lowered-precision", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Suspicious);
  EXPECT_EQ(flags[0].lines, std::vector<int>{lineOf(program, "cuda.matmul.fp32_precision")});
  EXPECT_NE(flags[0].message.find("cuda.matmul.fp32_precision = \"tf32\""), std::string::npos) << flags[0].message;

  const std::string global = candidate(R"PY(torch.backends.fp32_precision = 'tf32'

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  EXPECT_EQ(flagsOf("lowered-precision", global).size(), 1u);

  const std::string ieee = candidate(R"PY(torch.backends.cuda.matmul.fp32_precision = "ieee"

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)
)PY");
  EXPECT_TRUE(flagsOf("lowered-precision", ieee).empty());
}

TEST(LoweredPrecision, HalfConversionInsideTheCudaSource) {
  const std::string program = candidate(R"PY(from torch.utils.cpp_extension import load_inline
src = r"""
#include <cuda_fp16.h>
__global__ void k(const float* x, __half* y) {
    y[threadIdx.x] = __float2half(x[threadIdx.x]);
}
"""
ext = load_inline("k", cpp_sources="", cuda_sources=src)

class ModelNew(nn.Module):
    def forward(self, A, B):
        return ext.k(A)
)PY");
  const auto flags = flagsOf("lowered-precision", program);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].lines, std::vector<int>{lineOf(program, "__float2half(")});
}

TEST(LoweredPrecision, DefaultFlagsDtypeChecksAndDisabledAutocastAreFine) {
  const std::string program = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        torch.backends.cudnn.allow_tf32 = True  # PyTorch's default already

    def forward(self, A, B):
        if A.dtype == torch.float16:
            raise ValueError("expects float32")
        with torch.autocast("cuda", enabled=False):
            return torch.matmul(A, B).to(torch.float32)
)PY");
  EXPECT_TRUE(flagsOf("lowered-precision", program).empty());
}

TEST(LoweredPrecision, AHalfPrecisionReferenceMakesHalfComputeNormal) {
  const std::string reference =
      "import torch\nclass Model(torch.nn.Module):\n    def forward(self, A, B):\n        return A @ B\n\n"
      "N = 256\n\ndef get_inputs():\n    return [torch.randn(N, N, dtype=torch.float16) for _ in range(2)]\n";
  const std::string program = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.mm(A.half(), B.half())
)PY");
  EXPECT_TRUE(flagsOf("lowered-precision", program, reference).empty());
}

}  // namespace
}  // namespace ks
