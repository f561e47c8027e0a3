// CUDA-L2's session protocol (cuda_l2_method.h) on CPU, where only its bookkeeping runs: the warm-up in the
// fixed order [baseline, kernel], measured rounds in shuffled orders, each function its own fresh copies
// (padded for a padded kernel, b's column-major copy, c zeroed before the call), the server method's gaps,
// the round bound, and a failing call raising instead of being timed. On the GPU the same loop is checked
// against CUDA-L2's own harness by bench/gpu/crosscheck.sh (docs/method-fidelity.md).
#include "core/engine/cuda_l2_method.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>
#include <pybind11/pybind11.h>

#include <chrono>
#include <string>
#include <vector>

#include "core/engine/model_args.h"
#include "tests/engine/python_environment.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

struct Seen {
  int function = 0;  // 0 baseline, 1 candidate
  std::vector<std::int64_t> a, b, bColMajor, c;
  bool cZero = false, colMajorOfB = false;
  at::Tensor aValues;
};

py::object recorder(int function, std::vector<Seen>& seen, bool fail = false) {
  return py::cpp_function([function, &seen, fail](py::object a, py::object b, py::object bc, py::object c) {
    if (fail) throw std::runtime_error("CUTLASS GEMM execution failed");
    Seen s;
    s.function = function;
    const at::Tensor ta = *unwrapTensor(a), tb = *unwrapTensor(b), tbc = *unwrapTensor(bc), tc = *unwrapTensor(c);
    s.a = ta.sizes().vec();
    s.b = tb.sizes().vec();
    s.bColMajor = tbc.sizes().vec();
    s.c = tc.sizes().vec();
    s.cZero = tc.count_nonzero().item<std::int64_t>() == 0;
    // b_col_major holds b's column-major bytes in b's shape: row-major read, it is b transposed.
    s.colMajorOfB = at::equal(tbc.reshape({tb.size(1), tb.size(0)}), tb.t());
    s.aValues = ta.clone();
    seen.push_back(std::move(s));
    tc.fill_(1);  // written, as a GEMM writes c: the next call's c must be zeroed again
  });
}

TEST(CudaL2Session, WarmsUpInTheFixedOrderThenShufflesEachRoundOnFreshCopies) {
  testing::testEngine();
  std::vector<Seen> seen;
  CudaL2SessionSettings s;
  s.warmupSeconds = 60;  // both phases end on maxRounds here
  s.seconds = 60;
  s.maxRounds = 40;
  s.seed = 3;
  const CudaL2Shape shape{24, 16, 40, 0, 0, 0};
  const CudaL2SessionTimes t = runCudaL2Session(recorder(0, seen), recorder(1, seen), shape, "cpu", s);
  EXPECT_EQ(t.warmupRounds, 40);
  EXPECT_EQ(t.rounds, 40);
  ASSERT_EQ(seen.size(), 2u * 80);
  for (int i = 0; i < 80; ++i) EXPECT_EQ(seen[i].function, i % 2) << "warm-up call " << i;  // [baseline, kernel]
  int kernelFirst = 0;
  for (int r = 40; r < 80; ++r) {
    EXPECT_NE(seen[2 * r].function, seen[2 * r + 1].function) << "round " << r << " calls each function once";
    kernelFirst += seen[2 * r].function == 1;
  }
  EXPECT_GT(kernelFirst, 5);  // shuffled: each order often (40 rounds, seeded)
  EXPECT_LT(kernelFirst, 35);
  for (const Seen& c : seen) {
    EXPECT_EQ(c.a, (std::vector<std::int64_t>{24, 40}));
    EXPECT_EQ(c.b, (std::vector<std::int64_t>{40, 16}));
    EXPECT_EQ(c.bColMajor, (std::vector<std::int64_t>{40, 16}));
    EXPECT_EQ(c.c, (std::vector<std::int64_t>{24, 16}));
    EXPECT_TRUE(c.cZero);
    EXPECT_TRUE(c.colMajorOfB);
  }
  // One round's two functions read copies of the same a; the next round draws a new one.
  EXPECT_TRUE(at::equal(seen[0].aValues, seen[1].aValues));
  EXPECT_FALSE(at::equal(seen[0].aValues, seen[2].aValues));
  ASSERT_EQ(t.baselineMs.size(), 40u);
  ASSERT_EQ(t.candidateMs.size(), 40u);
  for (double ms : t.candidateMs) EXPECT_GT(ms, 0);
}

TEST(CudaL2Session, APaddedKernelGetsZeroPaddedCopiesAndTheBaselineTheShape) {
  testing::testEngine();
  std::vector<Seen> seen;
  CudaL2SessionSettings s;
  s.warmupSeconds = 0;
  s.seconds = 60;
  s.maxRounds = 4;
  const CudaL2Shape shape{40, 24, 64, 24, 8, 0};  // padded to 64 x 32 x 64
  runCudaL2Session(recorder(0, seen), recorder(1, seen), shape, "cpu", s);
  ASSERT_EQ(seen.size(), 8u);
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const Seen& c = seen[i];
    if (c.function == 1) {
      EXPECT_EQ(c.a, (std::vector<std::int64_t>{64, 64}));
      EXPECT_EQ(c.b, (std::vector<std::int64_t>{64, 32}));
      EXPECT_EQ(c.c, (std::vector<std::int64_t>{64, 32}));
      // The padding is zeros; the rest is the round's a.
      EXPECT_EQ(c.aValues.narrow(0, 40, 24).count_nonzero().item<std::int64_t>(), 0);
      const Seen& other = seen[i % 2 ? i - 1 : i + 1];
      EXPECT_TRUE(at::equal(c.aValues.narrow(0, 0, 40), other.aValues));
    } else {
      EXPECT_EQ(c.a, (std::vector<std::int64_t>{40, 64}));
      EXPECT_EQ(c.c, (std::vector<std::int64_t>{40, 24}));
    }
    EXPECT_TRUE(c.cZero);
    EXPECT_TRUE(c.colMajorOfB);
  }
}

TEST(CudaL2Session, TorchMatmulIsTheBaselineWhenNoneIsGiven) {
  testing::testEngine();
  std::vector<Seen> seen;
  CudaL2SessionSettings s;
  s.warmupSeconds = 0;
  s.maxRounds = 5;
  const CudaL2SessionTimes t = runCudaL2Session(py::none(), recorder(1, seen), CudaL2Shape{8, 8, 8}, "cpu", s);
  EXPECT_EQ(t.rounds, 5);
  EXPECT_EQ(t.baselineMs.size(), 5u);
  EXPECT_EQ(seen.size(), 5u);  // only the kernel through the recorder
}

TEST(CudaL2Session, TheServerMethodSleepsItsGapsAfterEveryRound) {
  testing::testEngine();
  std::vector<Seen> seen;
  CudaL2SessionSettings s;
  s.warmupSeconds = 0;
  s.seconds = 600;
  s.maxRounds = 40;
  s.serverQps = 50;  // 20 ms mean: 40 gaps are about 0.8 s, seeded (under 0.3 s is 4 standard deviations off)
  const auto since = std::chrono::steady_clock::now();
  const CudaL2SessionTimes t = runCudaL2Session(recorder(0, seen), recorder(1, seen), CudaL2Shape{8, 8, 8}, "cpu", s);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
  EXPECT_EQ(t.rounds, 40);
  EXPECT_GT(seconds, 0.3);
  // The calls themselves are not slept over: the gaps come after each round, outside the timed calls.
  for (double ms : t.candidateMs) EXPECT_LT(ms, 200);
}

TEST(CudaL2Session, AFailingCallRaisesInsteadOfBeingTimed) {
  testing::testEngine();
  std::vector<Seen> seen;
  CudaL2SessionSettings s;
  s.warmupSeconds = 0;
  s.maxRounds = 3;
  try {
    runCudaL2Session(recorder(0, seen), recorder(1, seen, true), CudaL2Shape{8, 8, 8}, "cpu", s);
    FAIL() << "a failing candidate was timed";
  } catch (const py::error_already_set& e) {
    EXPECT_NE(std::string(e.what()).find("CUTLASS GEMM execution failed"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ks::engine
