#include "core/formats/cuda_l2_reader.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "core/formats/load.h"
#include "core/formats/run_format.h"
#include "tests/formats/run_file_compare.h"
#include "tests/formats/shared_data.h"
#include "tests/formats/temp_dir.h"
#include "tests/formats/load_issues.h"

namespace ks {
namespace {

using test::issueMessages;
using test::hasIssue;

const char* kHeader = "mnk,torch.matmul,cuBLAS-max\n";

// A small release under `dir`: kernels/<release>/ with the given shapes, and one CSV per mode.
void writeRelease(const test::TempDir& dir, const std::string& release,
                  const std::vector<std::string>& shapes, const std::string& offline,
                  const std::string& server) {
  for (const std::string& s : shapes)
    dir.write("kernels/" + release + "/" + s + ".cu", "// kernel " + s + "\n");
  if (!offline.empty()) dir.write("eval_results/cuda_l2_" + release + "_speedup_offline.csv", offline);
  if (!server.empty()) dir.write("eval_results/cuda_l2_" + release + "_speedup_server.csv", server);
}

TEST(CudaL2Names, ShapesReleasesAndPrecisions) {
  ASSERT_TRUE(parseCudaL2Shape("1024_2048_64").has_value());
  EXPECT_EQ(parseCudaL2Shape("1024_2048_64")->n, 2048);
  for (const char* bad : {"", "1_2", "1_2_3_4", "1_2_x", "0_2_3", "-1_2_3", "1_2_3 ", "1__2_3"})
    EXPECT_FALSE(parseCudaL2Shape(bad).has_value()) << bad;
  EXPECT_TRUE(isCudaL2ReleaseName("h100_F32F16F16F32"));
  EXPECT_TRUE(isCudaL2ReleaseName("3090_F16F16F16F16"));
  EXPECT_FALSE(isCudaL2ReleaseName("kernels"));
  EXPECT_FALSE(isCudaL2ReleaseName("_F32"));
  EXPECT_FALSE(isCudaL2ReleaseName("h100-F32"));
  EXPECT_EQ(parseCudaL2Precision("F32F16F16F32").inputType, "fp16");
  EXPECT_EQ(parseCudaL2Precision("F32F16F16F32").accumulatorType, "fp32");
  EXPECT_EQ(parseCudaL2Precision("F16F16F16F16").accumulatorType, "fp16");
  EXPECT_EQ(parseCudaL2Precision("F32BF16BF16F32").inputType, "bf16");
  EXPECT_TRUE(parseCudaL2Precision("FP32").inputType.empty());
  EXPECT_TRUE(parseCudaL2Precision("F32F16F16").inputType.empty());
}

TEST(CudaL2Reader, SyntheticRootLoadsEveryShapeAndColumn) {
  test::TempDir dir;
  writeRelease(dir, "a100_F16F16F16F16", {"64_64_64", "128_64_64"},
               std::string(kHeader) + "64_64_64,1.5,1.25\n128_64_64,0.5,2\n",
               std::string(kHeader) + "64_64_64,2.5,3\n128_64_64,1,1\n");
  ASSERT_EQ(detectFormat(dir.path()), InputFormat::CudaL2Release);
  const RunFile run = loadAny(dir.path());
  EXPECT_EQ(run.format, "cuda-l2");
  EXPECT_TRUE(run.issues.empty()) << testing::PrintToString(issueMessages(run));
  ASSERT_EQ(run.tasks.size(), 2u);
  const Task& t = run.tasks.front();  // sorted by (M, N, K)
  EXPECT_EQ(t.key(), "a100_F16F16F16F16/64x64x64");
  ASSERT_TRUE(t.gemm.has_value());
  EXPECT_EQ(t.gemm->m, 64);
  EXPECT_EQ(t.gemm->gpu, "a100");
  EXPECT_EQ(t.gemm->precision, "F16F16F16F16");
  EXPECT_EQ(t.gemm->accumulatorType, "fp16");
  EXPECT_EQ(t.referenceLanguage, CodeLanguage::Cuda);
  EXPECT_EQ(t.referenceCode, "torch.matmul(a, b)");
  EXPECT_NE(t.referenceDescription.find("torch.matmul(a, b)"), std::string::npos);
  EXPECT_NE(t.referenceDescription.find("summed in fp16"), std::string::npos);
  ASSERT_EQ(t.candidates.size(), 1u);
  const Candidate& c = t.candidates.front();
  EXPECT_EQ(c.id, "64_64_64.cu");
  EXPECT_EQ(c.language, CodeLanguage::Cuda);
  EXPECT_EQ(*c.code, "// kernel 64_64_64\n");
  ASSERT_EQ(c.measurements.size(), 4u);
  EXPECT_EQ(c.measurements[0].baseline, "torch.matmul");
  EXPECT_EQ(c.measurements[0].mode, "offline");
  EXPECT_EQ(c.measurements[0].device, "A100 (as recorded by CUDA-L2)");
  EXPECT_DOUBLE_EQ(*c.speedup("cuBLAS-max", "offline"), 1.25);
  EXPECT_DOUBLE_EQ(*c.speedup("cuBLAS-max", "server"), 3.0);
  EXPECT_EQ(run.tasks[1].key(), "a100_F16F16F16F16/128x64x64");
  EXPECT_EQ(run.findTask("128x64x64"), &run.tasks[1]);
}

// A CUDA-L2 run written as a run file (kscope import) keeps its task keys, modes and reference in words.
// The GEMM shape is not in the run format yet: it is read back empty.
TEST(CudaL2Reader, RoundTripsThroughTheRunFormat) {
  test::TempDir dir;
  writeRelease(dir, "a100_F16F16F16F16", {"64_64_64", "128_64_64"},
               std::string(kHeader) + "64_64_64,1.5,1.25\n128_64_64,0.5,2\n",
               std::string(kHeader) + "64_64_64,2.5,3\n128_64_64,1,1\n");
  const RunFile run = loadAny(dir.path());
  std::string error;
  ASSERT_TRUE(writeRunFile(run, dir.path() / "run.jsonl", &error)) << error;
  const RunFile read = loadAny(dir.path() / "run.jsonl");
  EXPECT_TRUE(read.issues.empty()) << testing::PrintToString(issueMessages(read));
  test::expectSameRun(run, read);
  EXPECT_DOUBLE_EQ(*read.findTask("64x64x64")->candidates[0].speedup("torch.matmul", "server"), 2.5);
}

TEST(CudaL2Reader, OneReleaseFolderFindsItsTablesTwoLevelsUp) {
  test::TempDir dir;
  writeRelease(dir, "h100_F32F16F16F32", {"64_64_64"}, std::string(kHeader) + "64_64_64,1.5,1.25\n", "");
  const auto folder = dir.path() / "kernels/h100_F32F16F16F32";
  ASSERT_EQ(detectFormat(folder), InputFormat::CudaL2Release);
  const RunFile run = loadAny(folder);
  EXPECT_TRUE(run.issues.empty()) << testing::PrintToString(issueMessages(run));
  ASSERT_EQ(run.tasks.size(), 1u);
  EXPECT_EQ(run.tasks[0].candidates[0].measurements.size(), 2u);
  EXPECT_EQ(run.title, "CUDA-L2 h100_F32F16F16F32");
}

TEST(CudaL2Reader, OneKernelOpensAsItsShapeWithItsRows) {
  test::TempDir dir;
  writeRelease(dir, "h100_F32F16F16F32", {"64_64_64", "128_64_64"},
               std::string(kHeader) + "64_64_64,1.5,1.25\n128_64_64,bad,1\n1_1_1,1,1\n", "");
  const auto kernel = dir.path() / "kernels/h100_F32F16F16F32/64_64_64.cu";
  ASSERT_EQ(detectFormat(kernel), InputFormat::CudaL2Release);
  const RunFile run = loadAny(kernel);
  ASSERT_EQ(run.tasks.size(), 1u);
  EXPECT_EQ(run.tasks[0].key(), "h100_F32F16F16F32/64x64x64");
  EXPECT_EQ(run.tasks[0].candidates[0].measurements.size(), 2u);
  // The table's bad row is reported (it is the file being read), its other shapes' rows are not.
  EXPECT_TRUE(hasIssue(run, "_offline.csv", 3, "positive number")) << testing::PrintToString(issueMessages(run));
  EXPECT_FALSE(hasIssue(run, "_offline.csv", 4, "no kernel"));
}

TEST(CudaL2Reader, AKernelOutsideTheLayoutIsStillANativeKernel) {
  test::TempDir dir;
  EXPECT_EQ(detectFormat(dir.write("work/64_64_64.cu", "// k\n")), InputFormat::CudaSource);
  EXPECT_EQ(detectFormat(dir.write("kernels/h100_F32/notashape.cu", "// k\n")), InputFormat::CudaSource);
}

TEST(CudaL2Reader, MissingRowsAndKernelsAreIssuesWithFileAndLine) {
  test::TempDir dir;
  writeRelease(dir, "h100_F32F16F16F32", {"64_64_64", "128_128_128"},
               std::string(kHeader) + "64_64_64,1.5,1.25\n256_256_256,2,2\n", "");
  const RunFile run = loadAny(dir.path());
  ASSERT_EQ(run.tasks.size(), 2u);
  EXPECT_TRUE(hasIssue(run, "128_128_128.cu", 0,
                       "no row 128_128_128 in cuda_l2_h100_F32F16F16F32_speedup_offline.csv"))
      << testing::PrintToString(issueMessages(run));
  EXPECT_TRUE(hasIssue(run, "_offline.csv", 3, "no kernel 256_256_256.cu"));
  EXPECT_TRUE(run.tasks[1].candidates[0].measurements.empty());
  EXPECT_EQ(run.errorCount(), 0u) << "a missing pair is a warning: everything that is there loads";
}

TEST(CudaL2Reader, BadRowsAreSkippedAndNamed) {
  test::TempDir dir;
  writeRelease(dir, "h100_F32F16F16F32", {"64_64_64", "64_64_128", "64_64_256", "64_64_512", "64_128_64"},
               std::string(kHeader) +
                   "64_64_64,1.5,1.25\n"       // 2: fine
                   "64_64_128,1.5\n"           // 3: a column short
                   "64x64x256,1,1\n"           // 4: bad mnk
                   "64_64_512,nan,-1\n"        // 5: two bad numbers
                   "64_64_64,9,9\n"            // 6: repeated shape
                   "64_128_64,\"1.5\",1e0\n",  // 7: quoted and exponent: fine
               "");
  const RunFile run = loadAny(dir.path());
  ASSERT_EQ(run.tasks.size(), 5u);
  EXPECT_TRUE(hasIssue(run, "_offline.csv", 3, "expected 3 columns"))
      << testing::PrintToString(issueMessages(run));
  EXPECT_TRUE(hasIssue(run, "_offline.csv", 4, "expected mnk as M_N_K"));
  EXPECT_TRUE(hasIssue(run, "_offline.csv", 5, "over torch.matmul to be a positive number, got \"nan\""));
  EXPECT_TRUE(hasIssue(run, "_offline.csv", 5, "over cuBLAS-max to be a positive number, got \"-1\""));
  EXPECT_TRUE(hasIssue(run, "_offline.csv", 6, "already has a row (line 2)"));
  EXPECT_EQ(run.errorCount(), 5u);
  const Task* last = run.findTask("64x128x64");
  ASSERT_NE(last, nullptr);
  EXPECT_DOUBLE_EQ(*last->candidates[0].speedup("torch.matmul", "offline"), 1.5);
  EXPECT_DOUBLE_EQ(*run.findTask("64x64x64")->candidates[0].speedup("torch.matmul", "offline"), 1.5);
}

TEST(CudaL2Reader, TruncatedEmptyAndHeaderlessTables) {
  test::TempDir dir;
  writeRelease(dir, "h100_F32F16F16F32", {"64_64_64", "64_64_128"},
               std::string(kHeader) + "64_64_64,1.5,1.25\n64_64_128,1.", "mnk_wrong,a\n1_1_1,1\n");
  RunFile run = loadAny(dir.path());
  ASSERT_EQ(run.tasks.size(), 2u);
  EXPECT_TRUE(hasIssue(run, "_offline.csv", 3, "expected 3 columns"))
      << testing::PrintToString(issueMessages(run));
  EXPECT_TRUE(hasIssue(run, "_server.csv", 1, "first column to be \"mnk\""));
  dir.write("eval_results/cuda_l2_h100_F32F16F16F32_speedup_server.csv", "");
  run = loadAny(dir.path());
  EXPECT_TRUE(hasIssue(run, "_server.csv", 0, "table is empty")) << testing::PrintToString(issueMessages(run));
  EXPECT_EQ(run.tasks.size(), 2u);
}

TEST(CudaL2Reader, EmptyAndHalfLayouts) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.path() / "kernels/h100_F32F16F16F32");
  std::filesystem::create_directories(dir.path() / "eval_results");
  RunFile run = loadAny(dir.path());
  EXPECT_EQ(run.format, "cuda-l2");
  EXPECT_TRUE(run.tasks.empty());
  EXPECT_TRUE(hasIssue(run, "", 0, "no kernels")) << testing::PrintToString(issueMessages(run));
  EXPECT_EQ(loadAny(dir.path() / "kernels/h100_F32F16F16F32").format, "unknown")
      << "an empty folder is nothing";

  // Kernels without eval_results: they load, with one warning.
  test::TempDir bare;
  bare.write("kernels/h100_F32F16F16F32/64_64_64.cu", "// k\n");
  run = loadAny(bare.path() / "kernels/h100_F32F16F16F32");
  ASSERT_EQ(run.tasks.size(), 1u);
  ASSERT_EQ(run.issues.size(), 1u) << testing::PrintToString(issueMessages(run));
  EXPECT_NE(run.issues[0].message.find("no eval_results/ folder"), std::string::npos);

  // A table whose release has no kernels folder.
  dir.write("kernels/h100_F32F16F16F32/64_64_64.cu", "// k\n");
  dir.write("eval_results/cuda_l2_a100_F32F16F16F32_speedup_offline.csv", kHeader);
  run = loadAny(dir.path());
  EXPECT_TRUE(
      hasIssue(run, "cuda_l2_a100_F32F16F16F32_speedup_offline.csv", 0, "no kernels/a100_F32F16F16F32/"))
      << testing::PrintToString(issueMessages(run));
}

TEST(CudaL2Reader, KernelNotUtf8IsAnErrorTheRestLoads) {
  test::TempDir dir;
  writeRelease(dir, "h100_F32F16F16F32", {"64_64_64"}, std::string(kHeader) + "64_64_64,1,1\n64_64_128,1,1\n",
               "");
  dir.write("kernels/h100_F32F16F16F32/64_64_128.cu", std::string("ok\n\xff\xfe", 5));
  dir.write("kernels/h100_F32F16F16F32/notes.cu", "x");
  const RunFile run = loadAny(dir.path());
  ASSERT_EQ(run.tasks.size(), 1u);
  EXPECT_TRUE(hasIssue(run, "64_64_128.cu", 2, "not UTF-8")) << testing::PrintToString(issueMessages(run));
  EXPECT_TRUE(hasIssue(run, "notes.cu", 0, "expected a kernel named M_N_K.cu"));
}

// ---- The real H100 release ------------------------------------------------------------------------------

TEST(CudaL2Reader, RealReleaseLoadsAllThousandKernels) {
  KS_REQUIRE_CUDA_L2();
  const auto start = std::chrono::steady_clock::now();
  const RunFile run = loadAny(test::cudaL2Root());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "[ loaded 1000 CUDA-L2 kernels in " << seconds << " s ]\n";
  // Printed, not asserted: the target (< 1 s) is met in bench/load.sh, not in a test on a loaded machine.
  EXPECT_EQ(run.format, "cuda-l2");
  EXPECT_TRUE(run.issues.empty()) << testing::PrintToString(issueMessages(run));
  ASSERT_EQ(run.tasks.size(), 1000u);
  std::size_t measurements = 0;
  for (const Task& t : run.tasks) {
    ASSERT_EQ(t.candidates.size(), 1u);
    measurements += t.candidates[0].measurements.size();
    EXPECT_TRUE(t.candidates[0].code && t.candidates[0].code->find("torch::Tensor") != std::string::npos);
  }
  EXPECT_EQ(measurements, 1000u * 10 * 2) << "ten baselines, two modes";
  // The first rows of both tables, as in the files.
  const Task* t = run.findTask("h100_F32F16F16F32/64x64x64");
  ASSERT_NE(t, nullptr);
  EXPECT_DOUBLE_EQ(*t->candidates[0].speedup("torch.matmul", "offline"), 1.837);
  EXPECT_DOUBLE_EQ(*t->candidates[0].speedup("cuBLASLt-auto-tuning-max", "offline"), 1.283);
  EXPECT_DOUBLE_EQ(*t->candidates[0].speedup("torch.matmul", "server"), 2.362);
  EXPECT_EQ(t->gemm->accumulatorType, "fp32");
  EXPECT_EQ(t->gemm->inputType, "fp16");
  EXPECT_NE(t->referenceDescription.find("allow_fp16_reduced_precision_reduction = False"),
            std::string::npos);
  EXPECT_NE(run.findTask("8192x8192x8192"), nullptr);
}

TEST(CudaL2Reader, RealSingleKernelAndReleaseFolder) {
  KS_REQUIRE_CUDA_L2();
  const auto folder = test::cudaL2Root() / "kernels/h100_F32F16F16F32";
  const RunFile one = loadAny(folder / "1024_1024_1024.cu");
  EXPECT_EQ(one.format, "cuda-l2");
  EXPECT_TRUE(one.issues.empty()) << testing::PrintToString(issueMessages(one));
  ASSERT_EQ(one.tasks.size(), 1u);
  EXPECT_EQ(one.tasks[0].key(), "h100_F32F16F16F32/1024x1024x1024");
  EXPECT_EQ(one.tasks[0].candidates[0].measurements.size(), 20u);
  const RunFile release = loadAny(folder);
  EXPECT_EQ(release.tasks.size(), 1000u);
  EXPECT_TRUE(release.issues.empty());
}

}  // namespace
}  // namespace ks
