#include "core/formats/good_kernels_reader.h"

#include <gtest/gtest.h>

#include <string>

#include "core/formats/load.h"
#include "tests/formats/shared_data.h"
#include "tests/formats/temp_dir.h"
#include "tests/formats/load_issues.h"

namespace ks {
namespace {

using test::issueMessages;
using test::hasIssue;

void writeTask(const test::TempDir& dir, const std::string& name) {
  dir.write(name + "/ref.py", "class Model: pass  # " + name + "\n");
  dir.write(name + "/src.py", "class ModelNew: pass  # " + name + "\n");
}

TEST(GoodKernelsReader, FolderOfTaskFoldersAndOneTaskFolder) {
  test::TempDir dir;
  writeTask(dir, "Softmax");
  writeTask(dir, "LayerNorm");
  dir.write("README.md", "numbers in prose\n");
  dir.write("Half/ref.py", "x");
  std::filesystem::create_directories(dir.path() / "empty");
  ASSERT_EQ(detectFormat(dir.path()), InputFormat::GoodKernelsFolder);
  const RunFile run = loadAny(dir.path());
  EXPECT_EQ(run.format, "good-kernels");
  ASSERT_EQ(run.tasks.size(), 2u);
  EXPECT_EQ(run.tasks[0].key(), "LayerNorm");
  EXPECT_EQ(run.tasks[1].key(), "Softmax");
  EXPECT_EQ(run.findTask("Softmax"), &run.tasks[1]);
  const Task& t = run.tasks[0];
  EXPECT_EQ(t.referenceCode, "class Model: pass  # LayerNorm\n");
  EXPECT_EQ(t.referenceLanguage, CodeLanguage::Python);
  ASSERT_EQ(t.candidates.size(), 1u);
  EXPECT_EQ(t.candidates[0].id, "src.py");
  EXPECT_EQ(*t.candidates[0].code, "class ModelNew: pass  # LayerNorm\n");
  EXPECT_TRUE(t.candidates[0].measurements.empty());
  EXPECT_NE(t.note.find("No recorded measurements"), std::string::npos);
  ASSERT_EQ(run.issues.size(), 1u) << testing::PrintToString(issueMessages(run));
  EXPECT_TRUE(hasIssue(run, "Half", 0, "ref.py but no src.py"));

  ASSERT_EQ(detectFormat(dir.path() / "Softmax"), InputFormat::GoodKernelsFolder);
  const RunFile one = loadAny(dir.path() / "Softmax/");
  ASSERT_EQ(one.tasks.size(), 1u);
  EXPECT_EQ(one.tasks[0].key(), "Softmax");
  EXPECT_TRUE(one.issues.empty());
}

TEST(GoodKernelsReader, ResultsCsvGivesRecordedNumbers) {
  test::TempDir dir;
  writeTask(dir, "LayerNorm");
  dir.write("LayerNorm/results.csv",
            "baseline,speedup,baseline_ms,candidate_ms,device,when\n"
            "default,4.844,,,NVIDIA L40S,2025-05-28\n"
            "torch_compile_default,,2.0,0.5,NVIDIA L40S,\n"
            "\n"
            "default,fast,,,L40S,\n"  // 5: not a number
            "default,-1,,,L40S,\n"    // 6: not positive
            "cudnn,,1.0,,L40S,\n"     // 7: no speedup and one time
            "default,1,2\n");         // 8: short row
  const RunFile run = loadAny(dir.path());
  ASSERT_EQ(run.tasks.size(), 1u);
  const Candidate& c = run.tasks[0].candidates[0];
  ASSERT_EQ(c.measurements.size(), 2u) << testing::PrintToString(issueMessages(run));
  EXPECT_DOUBLE_EQ(*c.speedup(), 4.844);
  EXPECT_EQ(c.measurements[0].device, "NVIDIA L40S");
  EXPECT_EQ(c.measurements[0].when, "2025-05-28");
  EXPECT_EQ(c.measurements[0].origin, "recorded");
  EXPECT_DOUBLE_EQ(*c.speedup("torch_compile_default"), 4.0) << "from baseline_ms / candidate_ms";
  EXPECT_TRUE(run.tasks[0].note.empty());
  EXPECT_TRUE(hasIssue(run, "results.csv", 5, "expected speedup to be a number, got \"fast\""));
  EXPECT_TRUE(hasIssue(run, "results.csv", 6, "speedup must be a positive number"));
  EXPECT_TRUE(hasIssue(run, "results.csv", 7, "needs a speedup, or both baseline_ms and candidate_ms"));
  EXPECT_TRUE(hasIssue(run, "results.csv", 8, "expected 6 columns"));
  EXPECT_EQ(run.errorCount(), 4u);
}

TEST(GoodKernelsReader, ResultsCsvWithoutNumbersOrEmpty) {
  test::TempDir dir;
  writeTask(dir, "A");
  writeTask(dir, "B");
  dir.write("A/results.csv", "baseline,device,colour\ndefault,L40S,red\n");
  dir.write("B/results.csv", "");
  const RunFile run = loadAny(dir.path());
  ASSERT_EQ(run.tasks.size(), 2u);
  EXPECT_TRUE(hasIssue(run, "A/results.csv", 1, "unknown column \"colour\""))
      << testing::PrintToString(issueMessages(run));
  EXPECT_TRUE(hasIssue(run, "A/results.csv", 1, "expected a speedup column"));
  EXPECT_TRUE(hasIssue(run, "B/results.csv", 0, "file is empty"));
}

TEST(GoodKernelsReader, ResultsJson) {
  test::TempDir dir;
  writeTask(dir, "Softmax");
  dir.write(
      "Softmax/results.json",
      R"({"measurements": [{"baseline": "default", "speedup": 1.118, "device": "NVIDIA L40S", "note": "x"},
                                 {"speedup": "fast"}, 3, {"baseline_ms": 3, "candidate_ms": 1.5, "mode": "warm"}]})");
  writeTask(dir, "Broken");
  dir.write("Broken/results.json", "{\"measurements\": [\n{\"speedup\": 1,}\n]}");
  const RunFile run = loadAny(dir.path());
  ASSERT_EQ(run.tasks.size(), 2u);
  const Candidate& c = run.findTask("Softmax")->candidates[0];
  ASSERT_EQ(c.measurements.size(), 2u) << testing::PrintToString(issueMessages(run));
  EXPECT_DOUBLE_EQ(*c.speedup(), 1.118);
  EXPECT_DOUBLE_EQ(*c.speedup("default", "warm"), 2.0);
  EXPECT_TRUE(hasIssue(run, "Softmax/results.json", 0, "measurements[1]: speedup must be a number"));
  EXPECT_TRUE(hasIssue(run, "Softmax/results.json", 0, "measurements[2]: expected an object"));
  EXPECT_TRUE(hasIssue(run, "Broken/results.json", 2, "not JSON")) << testing::PrintToString(issueMessages(run));
  EXPECT_TRUE(run.findTask("Broken")->candidates[0].measurements.empty());
}

// Found by the good_kernels_json fuzz target: a number beyond double's range made nlohmann throw
// out_of_range, which escaped the reader (kscope summary: "internal error", nothing loaded).
TEST(GoodKernelsReader, ResultsJsonWithANumberBeyondDoubleIsAnIssueNotACrash) {
  test::TempDir dir;
  writeTask(dir, "Huge");
  dir.write("Huge/results.json", "{\"measurements\": [\n{\"speedup\": 2},\n{\"speedup\": 5e308}\n]}\n");
  writeTask(dir, "Fine");
  dir.write("Fine/results.json", R"({"measurements": [{"speedup": 1.5}]})");
  const RunFile run = loadAny(dir.path());
  ASSERT_EQ(run.tasks.size(), 2u);
  EXPECT_TRUE(hasIssue(run, "Huge/results.json", 3, "number overflow parsing '5e308'"))
      << testing::PrintToString(issueMessages(run));
  EXPECT_TRUE(run.findTask("Huge")->candidates[0].measurements.empty());
  ASSERT_EQ(run.findTask("Fine")->candidates[0].measurements.size(), 1u) << "the other task still loads";
}

TEST(GoodKernelsReader, NotAGoodKernelsFolder) {
  test::TempDir dir;
  dir.write("x/readme.txt", "x");
  EXPECT_EQ(goodKernelsInputKind(dir.path()), GoodKernelsInput::None);
  EXPECT_EQ(goodKernelsInputKind(dir.path() / "missing"), GoodKernelsInput::None);
  const RunFile run = readGoodKernels(dir.path());
  ASSERT_EQ(run.issues.size(), 1u);
  EXPECT_NE(run.issues[0].message.find("expected task folders holding ref.py and src.py"), std::string::npos);
}

TEST(GoodKernelsReader, RealFolders) {
  KS_REQUIRE_GOOD_KERNELS();
  const RunFile run = loadAny(test::goodKernelsRoot());
  EXPECT_EQ(run.format, "good-kernels");
  EXPECT_TRUE(run.issues.empty()) << testing::PrintToString(issueMessages(run));
  std::vector<std::string> keys;
  for (const Task& t : run.tasks) keys.push_back(t.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"Conv2D", "Conv2D_ReLU_MaxPool", "LayerNorm", "LayerNorm2",
                                            "MatmulFP32", "Softmax"}));
  const Task* ln = run.findTask("LayerNorm");
  ASSERT_NE(ln, nullptr);
  EXPECT_NE(ln->referenceCode.find("class Model(nn.Module)"), std::string::npos);
  EXPECT_NE(ln->candidates[0].code->find("load_inline"), std::string::npos);
  EXPECT_TRUE(ln->candidates[0].measurements.empty())
      << "the README's L40S numbers are prose, not a results file";
  EXPECT_FALSE(ln->note.empty());
  const RunFile one = loadAny(test::goodKernelsRoot() / "LayerNorm");
  ASSERT_EQ(one.tasks.size(), 1u);
  EXPECT_EQ(one.tasks[0].key(), "LayerNorm");
}

}  // namespace
}  // namespace ks
