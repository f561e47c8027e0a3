// The cuBLAS/cuBLASLt baselines on a GPU (label gpu): each computes A·B to float16 accuracy in its layout, and
// a whole baselines run times all seven baselines by all four methods. Skipped, with the reason, without a
// CUDA build or a GPU.
#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include "core/engine/gemm_baselines.h"
#include "core/engine/gemm_task.h"
#include "core/engine/trial_clock.h"
#include "core/protocol/gemm_baselines.h"
#include "tests/engine/python_environment.h"

#ifdef KS_ENGINE_CUDA
#include <c10/cuda/CUDAStream.h>

#include "core/engine/cublas_baselines.h"
#endif

namespace ks::engine {
namespace {

int cudaCandidate(const at::Tensor* in, int, at::Tensor* out, char*, std::size_t) {
  *out = at::matmul(in[0], in[1]);
  return 0;
}

void skipWithoutGpu() {
  testing::testEngine();
  if (!builtWithCuda()) GTEST_SKIP() << "cuBLAS baselines need a CUDA build (this torch has no CUDA)";
  if (!deviceUsable(c10::Device(c10::kCUDA, 0)) || !at::hasCUDA()) GTEST_SKIP() << "no CUDA device";
}

TEST(GpuGemmBaselines, EachCublasBaselineComputesTheProductInItsLayout) {
  skipWithoutGpu();
  if (::testing::Test::IsSkipped()) return;
#ifdef KS_ENGINE_CUDA
  const c10::Device cuda(c10::kCUDA, 0);
  for (const auto& shape : {std::array<std::int64_t, 3>{64, 128, 256}, {256, 64, 1024}, {128, 4096, 64}}) {
    const auto [m, n, k] = shape;
    const protocol::GemmRun run = gemmRun(protocol::GemmSpec{m, n, k, {}});
    ModelArgs args = gemmInputs(run, cuda, 42);
    const at::Tensor a = args[0].tensor, b = args[1].tensor, bColMajor = args[2].tensor;
    const at::Tensor expected = at::matmul(a.to(at::kFloat), b.to(at::kFloat));
    CublasBaselines lib(m, n, k, c10::cuda::getCurrentCUDAStream(0).stream(), 8);
    at::Tensor c = at::empty({m, n}, a.options());
    lib.autotune({a.data_ptr(), b.data_ptr(), bColMajor.data_ptr(), c.data_ptr()}, nullptr, nullptr, 1, 3, 1);
    EXPECT_GT(lib.algorithmsTried(true), 0);
    for (CublasBaseline which : kCublasBaselines) {
      c.fill_(0);
      lib.run(which, {a.data_ptr(), b.data_ptr(), bColMajor.data_ptr(), c.data_ptr()});
      const double err = (c.to(at::kFloat) - expected).abs().max().item<double>();
      const Tolerance tol = gemmTolerance(k);
      EXPECT_LE(err, tol.atol) << cublasBaselineName(which) << " " << m << "x" << n << "x" << k;
    }
  }
#endif
}

TEST(GpuGemmBaselines, AllBaselinesByAllMethods) {
  skipWithoutGpu();
  if (::testing::Test::IsSkipped()) return;
  GemmBaselineSettings s;
  s.secondsPerMethod = 0.2;
  s.sessionWarmupSeconds = 0.1;  // CUDA-L2's sessions: 7 baselines, offline (and its events twin) and server
  s.sessionSeconds = 0.2;
  testing::RecordingSink sink;
  PhaseReporter reporter(sink);
  const protocol::GemmRun run = gemmRun(protocol::GemmSpec{1024, 1024, 1024, {}});
  const protocol::GemmBaselines b =
      timeGemmBaselines(&cudaCandidate, run, c10::Device(c10::kCUDA, 0), s, reporter);
  EXPECT_EQ(b.timings.size(), (7u + 3u) * 4u) << (b.notes.empty() ? "" : b.notes[0]);
  for (const auto& t : b.timings) {
    EXPECT_GT(t.speedup, 0.2) << t.baseline << " " << t.method;  // the candidate is torch.matmul itself
    EXPECT_LT(t.speedup, 5.0) << t.baseline << " " << t.method;
    // CUDA-L2's methods read the host clock, as its harness; the offline one also times its events twin.
    EXPECT_EQ(t.clock, t.method.rfind("cuda-l2-", 0) == 0 ? "host" : "cuda-events") << t.baseline << " " << t.method;
    if (t.method == "cuda-l2-offline") {
      EXPECT_GT(t.eventSpeedup, 0.2) << t.baseline;
      EXPECT_GT(t.spread, 0) << t.baseline;
      EXPECT_GT(t.rounds, 10) << t.baseline;  // 0.2 s of rounds of well under a millisecond
    }
  }
  EXPECT_GT(b.autotuneAlgorithms, 0);
}

}  // namespace
}  // namespace ks::engine
