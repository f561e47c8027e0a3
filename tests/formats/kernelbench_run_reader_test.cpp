#include "core/formats/kernelbench_run_reader.h"

#include <gtest/gtest.h>

#include "core/formats/load.h"
#include "tests/formats/load_issues.h"
#include "tests/formats/temp_dir.h"

namespace ks {
namespace {

// A KernelBench checkout in miniature: two level-1 tasks, a timing file for one hardware, and a run of
// generate_samples.py + eval_from_generations.py (eval_results.json keyed by problem id, samples listed).
void writeCheckout(const test::TempDir& dir) {
  dir.write("kb/KernelBench/level1/1_Square_matrix_multiplication_.py", "class Model: pass  # one\n");
  dir.write("kb/KernelBench/level1/2_Standard_matrix_multiplication_.py", "class Model: pass  # two\n");
  dir.write("kb/results/timing/L40S/baseline_time_torch.json",
            R"({"level1": {"1_Square_matrix_multiplication_.py": {"mean": 3.0, "std": 0.1},
                           "2_Standard_matrix_multiplication_.py": {"mean": 2.0}}})");
  dir.write("kb/runs/flat/level_1_problem_1_sample_0_kernel.py", "class ModelNew: pass  # 1/0\n");
  dir.write("kb/runs/flat/level_1_problem_1_sample_1_kernel.py", "class ModelNew: pass  # 1/1\n");
  dir.write("kb/runs/flat/level_1_problem_2_sample_0_kernel.py", "class ModelNew: pass  # 2/0\n");
  dir.write("kb/runs/flat/level_1_problem_1_sample_0_prompt.txt", "a prompt\n");
  dir.write("kb/runs/flat/eval_results.json", R"({
    "1": [
        {"sample_id": 0, "compiled": true, "correctness": true, "metadata": {"hardware": "NVIDIA L40S"},
         "runtime": 1.5, "runtime_stats": {"mean": 1.5, "hardware": "NVIDIA L40S"}},
        {"sample_id": 1, "compiled": false, "correctness": false,
         "metadata": {"compilation_error": "nvcc failed"}, "runtime": -1.0, "runtime_stats": {}}
    ],
    "2": [
        {"sample_id": 0, "compiled": true, "correctness": false,
         "metadata": {"correctness_issue": "Output mismatch"}, "runtime": -1.0, "runtime_stats": {}}
    ]
})");
}

TEST(KernelBenchRunReader, FlatRunReadsTasksCandidatesVerdictsAndSpeedups) {
  test::TempDir dir;
  writeCheckout(dir);
  const RunFile run = readKernelBenchRun(dir.path() / "kb/runs/flat");
  EXPECT_TRUE(run.issues.empty()) << test::issueMessages(run).at(0);
  EXPECT_EQ(run.format, "kernelbench-run");
  EXPECT_EQ(run.title, "flat");
  EXPECT_NE(run.description.find("baseline_time_torch.json"), std::string::npos) << run.description;
  ASSERT_EQ(run.tasks.size(), 2u);
  const Task& one = run.tasks[0];
  EXPECT_EQ(one.key(), "L1/1");
  EXPECT_EQ(one.name, "1_Square_matrix_multiplication_");
  EXPECT_EQ(one.referenceCode, "class Model: pass  # one\n");
  ASSERT_EQ(one.candidates.size(), 2u);
  const Candidate& good = one.candidates[0];
  EXPECT_EQ(good.id, "sample_0");
  EXPECT_EQ(good.code.value(), "class ModelNew: pass  # 1/0\n");
  ASSERT_EQ(good.measurements.size(), 1u);
  const Measurement& m = good.measurements[0];
  EXPECT_EQ(m.origin, "recorded");
  EXPECT_EQ(m.baseline, "default");
  EXPECT_EQ(m.outcome, "correct");
  EXPECT_EQ(m.device, "NVIDIA L40S");
  EXPECT_DOUBLE_EQ(*m.candidateMs, 1.5);
  EXPECT_DOUBLE_EQ(*m.baselineMs, 3.0);
  EXPECT_DOUBLE_EQ(*good.speedup(), 2.0);

  const Candidate& broken = one.candidates[1];
  EXPECT_EQ(broken.id, "sample_1");
  ASSERT_EQ(broken.measurements.size(), 1u);
  EXPECT_EQ(broken.measurements[0].outcome, "error");
  EXPECT_EQ(broken.measurements[0].error, "compilation_error: nvcc failed");
  EXPECT_FALSE(broken.speedup());
  EXPECT_FALSE(broken.measurements[0].candidateMs);

  const Task& two = run.tasks[1];
  EXPECT_EQ(two.key(), "L1/2");
  ASSERT_EQ(two.candidates.size(), 1u);
  EXPECT_EQ(two.candidates[0].measurements.at(0).outcome, "incorrect");
  EXPECT_EQ(two.candidates[0].measurements.at(0).error, "correctness_issue: Output mismatch");
  EXPECT_FALSE(two.candidates[0].speedup());
}

// src/run_utils.py's shapes: eval_results.json keyed by level, problem and sample, and per-sample
// level_<L>_problem_<P>_sample_<S>_eval_result.json files; kernels of two levels in one run.
TEST(KernelBenchRunReader, LevelKeyedResultsAndPerSampleFiles) {
  test::TempDir dir;
  dir.write("repo/KernelBench/level2/7_Conv_ReLU.py", "class Model: pass  # L2/7\n");
  dir.write("repo/results/timing/H100/baseline_time_torch.json",
            R"({"level2": {"7_Conv_ReLU.py": {"mean": 0.9}}})");
  dir.write("repo/runs/nested/level_1_problem_3_sample_2_kernel.py", "k13\n");
  dir.write("repo/runs/nested/level_2_problem_7_sample_0_kernel.py", "k27\n");
  dir.write("repo/runs/nested/eval_results.json",
            R"({"1": {"3": {"2": {"compiled": true, "correctness": true, "runtime": 4.0}}}})");
  dir.write("repo/runs/nested/level_2_problem_7_sample_0_eval_result.json",
            R"({"level": 2, "problem_id": 7, "sample_id": 0, "compiled": true, "correctness": true,
                "metadata": {}, "runtime": 0.3, "runtime_stats": {"mean": 0.3}})");
  const RunFile run = readKernelBenchRun(dir.path() / "repo/runs/nested");
  ASSERT_EQ(run.tasks.size(), 2u);
  EXPECT_EQ(run.tasks[0].key(), "L1/3");
  EXPECT_EQ(run.tasks[0].name, "L1/3");  // no KernelBench/level1/3_*.py
  ASSERT_EQ(run.tasks[0].candidates.size(), 1u);
  EXPECT_EQ(run.tasks[0].candidates[0].id, "sample_2");
  EXPECT_EQ(run.tasks[0].candidates[0].code.value(), "k13\n");
  EXPECT_DOUBLE_EQ(*run.tasks[0].candidates[0].measurements.at(0).candidateMs, 4.0);
  EXPECT_FALSE(run.tasks[0].candidates[0].speedup());  // no level-1 time in the timing file
  EXPECT_EQ(run.tasks[1].key(), "L2/7");
  EXPECT_EQ(run.tasks[1].name, "7_Conv_ReLU");
  EXPECT_EQ(run.tasks[1].referenceCode, "class Model: pass  # L2/7\n");
  const Measurement& m = run.tasks[1].candidates.at(0).measurements.at(0);
  EXPECT_EQ(m.device, "H100 (as recorded by KernelBench)");
  EXPECT_NEAR(*m.speedup, 3.0, 1e-12);
  ASSERT_EQ(run.issues.size(), 1u) << test::issueMessages(run).at(0);
  EXPECT_TRUE(test::hasIssue(run, "nested", 0, "1 task(s) without a reference program: not in "));
}

TEST(KernelBenchRunReader, WithoutTasksOrTimesRuntimesHaveNoSpeedup) {
  test::TempDir dir;
  dir.write("alone/level_3_problem_4_sample_0_kernel.py", "k\n");
  dir.write("alone/eval_results.json",
            R"({"4": [{"sample_id": 0, "compiled": true, "correctness": true, "runtime": 2.5}]})");
  const RunFile run = readKernelBenchRun(dir.path() / "alone");
  ASSERT_EQ(run.tasks.size(), 1u);
  EXPECT_EQ(run.tasks[0].key(), "L3/4");
  EXPECT_EQ(run.tasks[0].name, "L3/4");
  EXPECT_TRUE(run.tasks[0].referenceCode.empty());
  EXPECT_FALSE(run.tasks[0].note.empty());
  const Measurement& m = run.tasks[0].candidates.at(0).measurements.at(0);
  EXPECT_DOUBLE_EQ(*m.candidateMs, 2.5);
  EXPECT_FALSE(m.speedup);
  EXPECT_FALSE(m.baselineMs);
  ASSERT_EQ(run.issues.size(), 1u);
  EXPECT_EQ(run.issues[0].severity, LoadIssue::Severity::Warning);
  EXPECT_NE(run.issues[0].message.find("no KernelBench/ task folder"), std::string::npos);
  EXPECT_NE(run.issues[0].message.find("KernelBenchRunOptions::tasksFolder"), std::string::npos);
}

TEST(KernelBenchRunReader, ExplicitTasksFolderAndBaselineFile) {
  test::TempDir dir;
  dir.write("tasks/level1/5_Add.py", "ref5\n");
  dir.write("times/baseline_time_torch_compile_inductor_default.json",
            R"({"level1": {"5_Add.py": {"mean": 1.0}}})");
  dir.write("run/level_1_problem_5_sample_0_kernel.py", "k\n");
  dir.write("run/eval_results.json", R"({"5": {"compiled": true, "correctness": true, "runtime": 0.25}})");
  KernelBenchRunOptions options;
  options.tasksFolder = dir.path() / "tasks";
  options.baselineTimes = dir.path() / "times/baseline_time_torch_compile_inductor_default.json";
  const RunFile run = readKernelBenchRun(dir.path() / "run", {}, options);
  EXPECT_TRUE(run.issues.empty()) << test::issueMessages(run).at(0);
  ASSERT_EQ(run.tasks.size(), 1u);
  EXPECT_EQ(run.tasks[0].referenceCode, "ref5\n");
  EXPECT_DOUBLE_EQ(*run.tasks[0].candidates.at(0).speedup("torch_compile_default"), 4.0);
}

TEST(KernelBenchRunReader, BrokenEvalResultsIsAnIssueAndKernelsStillLoad) {
  test::TempDir dir;
  dir.write("r/level_1_problem_1_sample_0_kernel.py", "k\n");
  dir.write("r/eval_results.json", "{\n  \"1\": [\n    {\"sample_id\": 0, \"compiled\": tru\n");
  const RunFile run = readKernelBenchRun(dir.path() / "r");
  ASSERT_EQ(run.tasks.size(), 1u);
  EXPECT_EQ(run.tasks[0].candidates.at(0).code.value(), "k\n");
  EXPECT_TRUE(run.tasks[0].candidates[0].measurements.empty());
  EXPECT_TRUE(test::hasIssue(run, "r/eval_results.json", 3, "not JSON")) << test::issueMessages(run).at(0);
}

TEST(KernelBenchRunReader, BadEntriesAreSkippedWithTheirLine) {
  test::TempDir dir;
  dir.write("r/level_1_problem_1_sample_0_kernel.py", "k\n");
  dir.write("r/eval_results.json", R"({
  "1": [{"sample_id": 0, "compiled": "yes", "correctness": true}],
  "x": [],
  "2": [{"compiled": true, "correctness": true}],
  "3": [{"sample_id": 0, "compiled": true, "correctness": true, "runtime": 1.0}]
})");
  const RunFile run = readKernelBenchRun(dir.path() / "r");
  EXPECT_TRUE(test::hasIssue(run, "eval_results.json", 2, "\"1\"[0]: \"compiled\" must be true or false"))
      << ::testing::PrintToString(test::issueMessages(run));
  EXPECT_TRUE(test::hasIssue(run, "eval_results.json", 3, "key \"x\""));
  EXPECT_TRUE(test::hasIssue(run, "eval_results.json", 4, "\"2\"[0]: expected a \"sample_id\""));
  EXPECT_TRUE(test::hasIssue(run, "eval_results.json", 5, "problem 3 sample 0 but no level_1_problem_3"));
  ASSERT_EQ(run.tasks.size(), 2u);
  EXPECT_TRUE(run.tasks[0].candidates.at(0).measurements.empty());
  EXPECT_FALSE(run.tasks[1].candidates.at(0).code.has_value());
  EXPECT_DOUBLE_EQ(*run.tasks[1].candidates[0].measurements.at(0).candidateMs, 1.0);
}

TEST(KernelBenchRunReader, DetectionPicksTheRunFolderAndItsEvalResults) {
  test::TempDir dir;
  writeCheckout(dir);
  dir.write("kernels-only/level_2_problem_9_sample_0_kernel.py", "k\n");
  EXPECT_EQ(detectFormat(dir.path() / "kb/runs/flat"), InputFormat::KernelBenchRun);
  EXPECT_EQ(detectFormat(dir.path() / "kb/runs/flat/eval_results.json"), InputFormat::KernelBenchRun);
  EXPECT_EQ(detectFormat(dir.path() / "kernels-only"), InputFormat::KernelBenchRun);
  EXPECT_EQ(detectFormat(dir.path() / "kb/KernelBench"), InputFormat::KernelBenchFolder);
  EXPECT_EQ(detectFormat(dir.path() / "kb/runs"), InputFormat::Unknown);
  EXPECT_STREQ(formatName(InputFormat::KernelBenchRun), "kernelbench-run");
  const RunFile viaFile = loadAny(dir.path() / "kb/runs/flat/eval_results.json");
  EXPECT_EQ(viaFile.format, "kernelbench-run");
  EXPECT_EQ(viaFile.title, "flat");
  EXPECT_EQ(viaFile.tasks.size(), 2u);
  EXPECT_TRUE(viaFile.issues.empty()) << test::issueMessages(viaFile).at(0);
  EXPECT_EQ(loadAny(dir.path() / "kb/runs/flat").candidateCount(), 3u);
}

}  // namespace
}  // namespace ks
