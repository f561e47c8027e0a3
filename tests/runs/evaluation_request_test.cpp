// The evaluate request of a CUDA-L2 kernel: a GEMM task whose entry and tile come from the kernel's source.
// On the real release (../shared/datasets/cuda-l2; skipped with a reason when absent).
#include "core/runs/evaluation_request.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/formats/cuda_l2_reader.h"
#include "ks_test_paths.h"

namespace ks::runs {
namespace {

const std::filesystem::path kRelease = std::filesystem::path(KS_SHARED_DIR) / "datasets/cuda-l2";
const std::filesystem::path kH100 = kRelease / "kernels/h100_F32F16F16F32";

#define KS_REQUIRE_RELEASE()                                                                           \
  do {                                                                                                 \
    if (!std::filesystem::exists(kH100))                                                               \
      GTEST_SKIP() << "CUDA-L2 release not found at " << kH100 << " (../shared/datasets/cuda-l2 next to " \
                   << "the repository)";                                                               \
  } while (0)

TEST(EvaluationRequest, CudaL2KernelBecomesAGemmTaskWithItsEntryAndTile) {
  KS_REQUIRE_RELEASE();
  const RunFile run = readCudaL2(kH100 / "1024_1024_1024.cu");
  const Task* task = run.findTask("h100_F32F16F16F32/1024x1024x1024");
  ASSERT_NE(task, nullptr);
  ASSERT_EQ(task->candidates.size(), 1u);
  auto made = evaluationRequest(*task, task->candidates[0], {});
  ASSERT_TRUE(std::holds_alternative<protocol::Request>(made)) << std::get<std::string>(made);
  const protocol::Request& r = std::get<protocol::Request>(made);
  EXPECT_EQ(r.op, protocol::Op::Evaluate);
  EXPECT_EQ(r.task->language, CodeLanguage::Cuda);
  EXPECT_EQ(r.task->reference, "torch.matmul(a, b)");
  EXPECT_TRUE(r.task->inputs.empty());
  ASSERT_TRUE(r.task->gemm);
  EXPECT_EQ(r.task->gemm->m, 1024);
  EXPECT_EQ(r.task->gemm->n, 1024);
  EXPECT_EQ(r.task->gemm->k, 1024);
  // The kernel's `auto BM = Int<…>{}` etc., read from its source.
  ASSERT_EQ(r.task->gemm->padTo.size(), 3u);
  for (std::int64_t t : r.task->gemm->padTo) EXPECT_EQ(1024 % t, 0) << t;
  EXPECT_EQ(r.candidate->entry, "cuda_l2_h100_fp32");
  EXPECT_EQ(r.candidate->language, CodeLanguage::Cuda);
}

TEST(EvaluationRequest, EveryH100KernelOfTheReleaseMakesARequest) {
  KS_REQUIRE_RELEASE();
  const RunFile run = readCudaL2(kH100);
  ASSERT_EQ(run.tasks.size(), 1000u);
  int withTile = 0, padded = 0;
  for (const Task& task : run.tasks) {
    ASSERT_EQ(task.candidates.size(), 1u) << task.key();
    auto made = evaluationRequest(task, task.candidates[0], {});
    ASSERT_TRUE(std::holds_alternative<protocol::Request>(made)) << task.key() << ": " << std::get<std::string>(made);
    const protocol::Request& r = std::get<protocol::Request>(made);
    EXPECT_EQ(r.candidate->entry, "cuda_l2_h100_fp32") << task.key();
    const auto& g = *r.task->gemm;
    if (g.padTo.empty()) continue;
    ++withTile;
    if (g.m % g.padTo[0] || g.n % g.padTo[1] || g.k % g.padTo[2]) ++padded;
  }
  std::printf("CUDA-L2 H100: %d of 1000 kernels name their block tile; %d of those shapes are padded\n", withTile,
              padded);
  EXPECT_GE(withTile, 800);
}

TEST(EvaluationRequest, GemmCandidateWithoutAnEntryIsRefusedWithAReason) {
  Task task;
  task.id = "h100_F32F16F16F32/64x64x64";
  task.referenceLanguage = CodeLanguage::Cuda;
  task.referenceCode = "torch.matmul(a, b)";
  task.gemm = GemmShape{.m = 64, .n = 64, .k = 64, .gpu = "h100", .precision = "F32F16F16F32",
                        .inputType = "fp16", .accumulatorType = "fp32"};
  Candidate c;
  c.id = "64_64_64.cu";
  c.language = CodeLanguage::Cuda;
  c.code = "__global__ void k() {}\n";
  auto made = evaluationRequest(task, c, {});
  ASSERT_TRUE(std::holds_alternative<std::string>(made));
  EXPECT_NE(std::get<std::string>(made).find("no GEMM entry function found"), std::string::npos)
      << std::get<std::string>(made);
}

}  // namespace
}  // namespace ks::runs
