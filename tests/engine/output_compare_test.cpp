// Output comparison rules (core/engine/output_compare.h) on hand-made tensors.
#include "core/engine/output_compare.h"
#include "core/engine/tensor_evidence.h"

#include <ATen/ops/full.h>
#include <ATen/ops/tensor.h>
#include <gtest/gtest.h>

#include <limits>

using namespace ks::engine;

namespace {

at::Tensor floats(std::vector<float> v) { return at::tensor(v); }

}  // namespace

TEST(OutputCompare, ToleranceFollowsTheDtype) {
  EXPECT_EQ(toleranceFor(at::kFloat, {}, {}).atol, 1e-2);
  EXPECT_EQ(toleranceFor(at::kDouble, {}, {}).rtol, 1e-2);
  EXPECT_EQ(toleranceFor(at::kHalf, {}, {}).atol, 5e-2);
  EXPECT_EQ(toleranceFor(at::kBFloat16, {}, {}).rtol, 1e-1);
  EXPECT_EQ(toleranceFor(at::kLong, {}, {}).atol, 0);
  EXPECT_EQ(toleranceFor(at::kBool, {}, {}).rtol, 0);
  EXPECT_EQ(toleranceFor(at::kHalf, 1e-3, {}).atol, 1e-3);
  EXPECT_EQ(toleranceFor(at::kHalf, 1e-3, {}).rtol, 5e-2);
}

TEST(OutputCompare, WithinToleranceReportsTheErrors) {
  const auto check = compareOutputs({floats({1, 2, 100})}, {floats({1.005f, 2, 100.5f})}, {}, {});
  EXPECT_TRUE(check.passed) << check.message;
  EXPECT_NEAR(check.maxAbsErr, 0.5, 1e-6);
  EXPECT_NEAR(check.maxRelErr, 0.005, 1e-6);
  EXPECT_TRUE(check.message.empty());
}

TEST(OutputCompare, BeyondToleranceLocatesTheWorstValue) {
  const at::Tensor ref = at::full({2, 3}, 1.0f);
  at::Tensor cand = ref.clone();
  cand[1][2] = 1.5f;
  const auto check = compareOutputs({ref}, {cand}, {}, {});
  EXPECT_FALSE(check.passed);
  EXPECT_EQ(
      check.message,
      "1 of 6 values differ by more than atol=0.01 + rtol=0.01 * |reference| (max abs err 0.5 at [1, 2])");
}

TEST(OutputCompare, NonFiniteRules) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(compareOutputs({floats({nan, inf, 1})}, {floats({nan, inf, 1})}, {}, {}).passed);
  EXPECT_EQ(compareOutputs({floats({1, 2})}, {floats({1, nan})}, {}, {}).message,
            "1 NaN/inf values where the reference is finite (first at [1])");
  EXPECT_FALSE(compareOutputs({floats({nan, 1})}, {floats({0, 1})}, {}, {}).passed);
  EXPECT_FALSE(compareOutputs({floats({inf})}, {floats({-inf})}, {}, {}).passed);
}

TEST(OutputCompare, ShapeDtypeAndCountMustMatch) {
  EXPECT_EQ(compareOutputs({floats({1, 2})}, {floats({1, 2, 3})}, {}, {}).message,
            "shape float32[3] on cpu, expected float32[2] on cpu");
  EXPECT_EQ(compareOutputs({floats({1})}, {floats({1}).to(at::kDouble)}, {}, {}).message,
            "dtype float64, expected float32");
  EXPECT_EQ(compareOutputs({floats({1})}, {floats({1}), floats({1})}, {}, {}).message,
            "the candidate returned 2 tensors, the reference 1");
}

TEST(OutputCompare, IntegersAreExact) {
  const at::Tensor ref = at::tensor(std::vector<std::int64_t>{1, 2, 3});
  EXPECT_TRUE(compareOutputs({ref}, {ref.clone()}, {}, {}).passed);
  EXPECT_FALSE(compareOutputs({ref}, {ref.add(1)}, {}, {}).passed);
}

// NaN is never a wildcard: a check written as `error > bound` lets a NaN through, since every comparison with NaN
// is false. The correctness check fails NaN where the reference is finite, wherever it stands and however many;
// the probes' difference makes it infinite, so every `difference > bound` after it holds.
TEST(OutputCompare, NaNIsAMismatchInEveryComparison) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // All NaN, and NaN only where the error would be largest.
  EXPECT_FALSE(compareOutputs({floats({1, 2, 3})}, {floats({nan, nan, nan})}, {}, {}).passed);
  const auto partial = compareOutputs({floats({1, 2, 300})}, {floats({1, 2, nan})}, {}, {});
  EXPECT_FALSE(partial.passed);
  EXPECT_FALSE(std::isnan(partial.maxAbsErr));
  EXPECT_FALSE(compareOutputs({floats({1, 2})}, {floats({1, nan})}, 1e9, 1e9).passed);  // any tolerance
  EXPECT_FALSE(compareOutputs({floats({inf})}, {floats({nan})}, {}, {}).passed);
  EXPECT_FALSE(compareOutputs({floats({nan})}, {floats({inf})}, {}, {}).passed);

  EXPECT_TRUE(std::isinf(maxAbsDifference(floats({1, 2}), floats({1, nan}))));
  EXPECT_TRUE(std::isinf(maxAbsDifference(floats({1, nan}), floats({1, 2}))));
  EXPECT_TRUE(std::isinf(maxAbsDifference(floats({inf}), floats({-inf}))));
  EXPECT_TRUE(std::isinf(maxAbsDifference(floats({inf}), floats({nan}))));
  EXPECT_GT(maxAbsDifference(floats({1, 2}), floats({1, nan})), 1e300);
  // Non-finite alike in both is agreement there; the finite values still count.
  EXPECT_DOUBLE_EQ(maxAbsDifference(floats({nan, inf, 1}), floats({nan, inf, 1.5f})), 0.5);
  // Two runs of the reference (its float32 run against its float64 one) compare where both are numbers.
  EXPECT_DOUBLE_EQ(maxFiniteDifference(floats({1, inf}), floats({1.25f, 2})), 0.25);
  // An input written with NaN moved beyond any tolerance.
  EXPECT_TRUE(changeBetween(floats({1, 2}), floats({1, nan}), toleranceFor(at::kFloat, 1e9, 1e9)).beyondTolerance);
}
