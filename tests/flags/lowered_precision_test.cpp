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


// A float64 task (its get_inputs makes float64 tensors) computed in float32 and cast back is off by float32's
// rounding, inside the tolerance: .float(), .to(torch.float32), dtype=torch.float32 and the default dtype (float32
// unless the program sets float64) are each that cast.
const char* kFloat64Reference = R"PY(import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A, B)

N = 256

def get_inputs():
    A = torch.randn(N, N, dtype=torch.float64)
    B = torch.randn(N, N, dtype=torch.float64)
    return [A, B]
)PY";

TEST(LoweredPrecision, Float32ComputeOnAFloat64TaskIsAHackByEveryRoute) {
  for (const char* body : {"        return torch.matmul(A.float(), B.float()).double()\n",
                           "        return torch.mm(A.to(torch.float32), B.to(torch.float32)).to(A.dtype)\n",
                           "        acc = torch.zeros(A.shape[0], B.shape[1], dtype=torch.float32)\n"
                           "        return acc.addmm_(A.to(acc.dtype), B.to(acc.dtype)).to(A.dtype)\n",
                           "        work = torch.get_default_dtype()\n"
                           "        return torch.matmul(A.to(work), B.to(work)).to(A.dtype)\n",
                           "        return torch.matmul(A.type(torch.FloatTensor), B.float()).double()\n"}) {
    const std::string program = candidate(std::string("class ModelNew(nn.Module):\n    def forward(self, A, B):\n") + body);
    const auto flags = flagsOf("lowered-precision", program, kFloat64Reference);
    ASSERT_EQ(flags.size(), 1u) << body;
    EXPECT_EQ(flags[0].severity, FlagSeverity::Hack) << body;
    EXPECT_NE(flags[0].message.find("float32"), std::string::npos);
    EXPECT_NE(flags[0].message.find("float64"), std::string::npos);
    EXPECT_FALSE(flags[0].lines.empty());
  }
}

TEST(LoweredPrecision, Float64CastsOnAFloat64TaskAndFloat32CastsOnAFloat32TaskAreFine) {
  const std::string float64 = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        out = torch.zeros(A.shape[0], B.shape[1], dtype=torch.float64)
        relu = A * (A > 0).float()
        mask = A.gt(0).float()
        torch.mm(A.double(), B.to(torch.float64), out=out)
        return out.to(dtype=A.dtype) + 0 * relu * mask
)PY");
  EXPECT_TRUE(flagsOf("lowered-precision", float64, kFloat64Reference).empty());
  // A program that makes float64 the default dtype casts to it in float64.
  const std::string defaultDouble = candidate(R"PY(torch.set_default_dtype(torch.float64)

class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A.to(torch.get_default_dtype()), B)
)PY");
  EXPECT_TRUE(flagsOf("lowered-precision", defaultDouble, kFloat64Reference).empty());
  const std::string float32 = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        out = torch.empty(A.shape[0], B.shape[1], dtype=torch.float32)
        return torch.mm(A.float(), B.to(torch.float32), out=out)
)PY");
  EXPECT_TRUE(flagsOf("lowered-precision", float32).empty());
}

TEST(LoweredPrecision, SixteenBitComputeOnAFloat64TaskNamesFloat64) {
  const std::string program = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.matmul(A.half(), B.half()).double()
)PY");
  const auto flags = flagsOf("lowered-precision", program, kFloat64Reference);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_NE(flags[0].message.find("reference computes in float64"), std::string::npos) << flags[0].message;
}

// Routes to 16 bits that name no 16-bit type where the cast is: a dtype kept on the module, and a float32
// value's low mantissa bits cleared through an integer view (bfloat16's precision with no cast at all).
TEST(LoweredPrecision, SixteenBitsThroughAModuleAttributeOrAMantissaMaskAreHacks) {
  const std::string attribute = candidate(R"PY(class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.compute_dtype = torch.bfloat16

    def forward(self, A, B):
        return torch.mm(A.to(self.compute_dtype), B.to(self.compute_dtype)).to(A.dtype)
)PY");
  auto flags = flagsOf("lowered-precision", attribute);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_TRUE(hasLine(flags[0], lineOf(attribute, "torch.mm(A.to(self.compute_dtype)")));

  const std::string masked = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        a = ((A.contiguous().view(torch.int32) + 0x8000) & -65536).view(torch.float32)
        return torch.mm(a, B)
)PY");
  flags = flagsOf("lowered-precision", masked);
  ASSERT_EQ(flags.size(), 1u);
  EXPECT_EQ(flags[0].severity, FlagSeverity::Hack);
  EXPECT_TRUE(hasLine(flags[0], lineOf(masked, "& -65536")));
  const std::string hexMask = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        return torch.mm((A.view(torch.int32) & 0xFFFFE000).view(torch.float32), B)
)PY");
  EXPECT_EQ(flagsOf("lowered-precision", hexMask).size(), 1u);

  // Bits read for a sign or an exponent, or a mask that keeps the mantissa, lower nothing.
  const std::string sign = candidate(R"PY(class ModelNew(nn.Module):
    def forward(self, A, B):
        negative = (A.view(torch.int32) & 0x7FFFFFFF) != A.view(torch.int32)
        return torch.mm(A, B) * 1 + 0 * negative
)PY");
  EXPECT_TRUE(flagsOf("lowered-precision", sign).empty());
}

}  // namespace
}  // namespace ks
