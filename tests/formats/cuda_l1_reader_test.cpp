#include "core/formats/cuda_l1_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "core/formats/issue_list.h"
#include "tests/formats/shared_data.h"
#include "tests/formats/temp_dir.h"
#include "tests/formats/load_issues.h"

namespace ks {
namespace {

using test::issueMessages;

const char* kRow =
    R"({"level_id": 1, "task_id": 7, )"
    R"("ref_code": "class Model(nn.Module):\n    \"\"\"Simple model that performs a ReLU.\"\"\"\n", )"
    R"("custom_code": "class ModelNew: pass", "cuda_graph_code": "graph", "cudnn_code": null, )"
    R"("score_default": 1.5, "score_torch_compile_default": 0.9, )"
    R"("score_torch_compile_reduce_overhead": null, "score_cuda_graph": 1.2, "score_cudnn": 1.4})";

std::string row(int level, int task) {
  std::string r = kRow;
  r.replace(r.find("\"level_id\": 1"), 13, "\"level_id\": " + std::to_string(level));
  r.replace(r.find("\"task_id\": 7"), 12, "\"task_id\": " + std::to_string(task));
  return r;
}

TEST(CudaL1Reader, ReadsEveryFieldOfARow) {
  test::TempDir dir;
  const RunFile run = readCudaL1(dir.write("run.jsonl", std::string(kRow) + "\n"));
  ASSERT_TRUE(run.issues.empty()) << ::testing::PrintToString(issueMessages(run));
  EXPECT_EQ(run.format, "cuda-l1");
  ASSERT_EQ(run.tasks.size(), 1u);
  const Task& t = run.tasks[0];
  EXPECT_EQ(t.key(), "L1/7");
  EXPECT_EQ(t.name, "ReLU");
  EXPECT_EQ(t.sourceLine, 1);
  EXPECT_TRUE(t.referenceCode.starts_with("class Model(nn.Module):"));
  ASSERT_EQ(t.baselinePrograms.size(), 1u);  // cudnn_code is null
  EXPECT_EQ(t.baselinePrograms[0], (std::pair<std::string, std::string>{"cuda_graph", "graph"}));
  ASSERT_EQ(t.candidates.size(), 1u);
  const Candidate& c = t.candidates[0];
  EXPECT_EQ(c.id, "cuda-l1");
  EXPECT_EQ(c.code, "class ModelNew: pass");
  ASSERT_EQ(c.measurements.size(), 4u);  // reduce_overhead is null
  EXPECT_EQ(c.speedup("default"), 1.5);
  EXPECT_EQ(c.speedup("torch_compile_default"), 0.9);
  EXPECT_EQ(c.speedup("torch_compile_reduce_overhead"), std::nullopt);
  EXPECT_EQ(c.speedup("cuda_graph"), 1.2);
  EXPECT_EQ(c.speedup("cudnn"), 1.4);
  for (const Measurement& m : c.measurements) {
    EXPECT_EQ(m.origin, "recorded");
    EXPECT_EQ(m.device, "") << "the file name says nothing about the device";
  }
}

TEST(CudaL1Reader, DeviceComesFromOptionsOrFileName) {
  test::TempDir dir;
  const RunFile fromName = readCudaL1(dir.write("cuda-l1-H100.jsonl", kRow));
  EXPECT_EQ(fromName.tasks.at(0).candidates.at(0).measurements.at(0).device, "H100 (as recorded by CUDA-L1)");
  LoadOptions options;
  options.recordedDevice = "NVIDIA H100 80GB HBM3";
  const RunFile fromOptions = readCudaL1(dir.path() / "cuda-l1-H100.jsonl", options);
  EXPECT_EQ(fromOptions.tasks.at(0).candidates.at(0).measurements.at(0).device, "NVIDIA H100 80GB HBM3");
}

TEST(CudaL1Reader, NullCustomCodeIsACandidateWithoutProgram) {
  test::TempDir dir;
  const RunFile run = readCudaL1(dir.write(
      "run.jsonl",
      R"({"level_id": 2, "task_id": 3, "ref_code": "x", "custom_code": null, "score_default": null})"));
  ASSERT_TRUE(run.issues.empty()) << ::testing::PrintToString(issueMessages(run));
  const Candidate& c = run.tasks.at(0).candidates.at(0);
  EXPECT_FALSE(c.code.has_value());
  EXPECT_TRUE(c.measurements.empty());
}

TEST(CudaL1Reader, BadLinesAreReportedAndTheRestLoads) {
  test::TempDir dir;
  const std::string text =
      row(1, 1) + "\n" +  // 1 ok
      R"({"level_id": 1, "task_id": "2", "ref_code": "x"})"
      "\n" +  // 2 bad type
      "\n" +  // 3 blank
      R"({"level_id": 1, "ref_code": "x"})"
      "\n" +                    // 4 missing key
      "[1, 2]\n" +              // 5 not an object
      "{\"level_id\": 1, \n" +  // 6 broken JSON
      row(1, 1) +
      "\n" +  // 7 duplicate
      R"({"level_id": 1, "task_id": 8, "ref_code": "x", "score_cudnn": "fast", "score_default": -2})"
      "\n" +
      row(3, 9).substr(0, 40);  // 9 truncated
  const RunFile run = readCudaL1(dir.write("bad.jsonl", text));
  const std::string f = (dir.path() / "bad.jsonl").string();
  const std::vector<std::string> expected = {
      f + ":2: error: expected key \"task_id\" to be an integer >= 0, got string \"2\"; line skipped",
      f + ":4: error: missing key \"task_id\" (expected an integer >= 0); line skipped",
      f + ":5: error: expected a JSON object (one task a line), got array",
  };
  const std::vector<std::string> got = issueMessages(run);
  ASSERT_EQ(got.size(), 8u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0], expected[0]);
  EXPECT_EQ(got[1], expected[1]);
  EXPECT_EQ(got[2], expected[2]);
  EXPECT_TRUE(got[3].starts_with(f + ":6: error: not valid JSON: column ")) << got[3];
  EXPECT_EQ(got[4], f + ":7: error: duplicate task L1/1 (first on line 1); line skipped");
  EXPECT_EQ(got[5], f + ":8: error: expected key \"score_default\" to be a number > 0, got integer -2");
  EXPECT_EQ(got[6], f + ":8: error: expected key \"score_cudnn\" to be a number > 0, got string \"fast\"");
  EXPECT_TRUE(got[7].starts_with(f + ":9: error: not valid JSON: ")) << got[7];
  EXPECT_TRUE(got[7].ends_with("(the last line has no line break: the file may be truncated)")) << got[7];

  ASSERT_EQ(run.tasks.size(), 2u);  // line 1, and line 8 without its bad scores
  EXPECT_EQ(run.tasks[1].key(), "L1/8");
  EXPECT_EQ(run.tasks[1].sourceLine, 8);
  EXPECT_TRUE(run.tasks[1].candidates.at(0).measurements.empty());
}

// A value nested 100,000 deep would overflow the stack of whoever copied it: it is one bad line, named with
// its column, and the lines around it load.
TEST(CudaL1Reader, ADeeplyNestedValueSkipsItsLineOnly) {
  test::TempDir dir;
  std::string deep = row(1, 2);
  const std::string nested = std::string(100000, '[') + std::string(100000, ']');
  deep.replace(deep.find("\"graph\""), 7, nested);
  const RunFile run = readCudaL1(dir.write("deep.jsonl", row(1, 1) + "\n" + deep + "\n" + row(1, 3) + "\n"));
  const std::vector<std::string> got = issueMessages(run);
  ASSERT_EQ(got.size(), 1u) << ::testing::PrintToString(got);
  EXPECT_TRUE(got[0].starts_with((dir.path() / "deep.jsonl").string() +
                                 ":2: error: JSON nested deeper than 512 levels (column "))
      << got[0];
  ASSERT_EQ(run.tasks.size(), 2u);
  EXPECT_EQ(run.tasks[1].key(), "L1/3");
}

// Found by fuzz_load_any: a reference whose comment block starts with a line of '#' alone made the reader
// throw, and `kscope summary` said "internal error" and loaded nothing. Now the row loads, named from the
// comment below the hashes.
TEST(CudaL1Reader, AReferenceWithALineOfHashesLoads) {
  test::TempDir dir;
  const std::string hashes =
      R"({"level_id": 1, "task_id": 2, "ref_code": "import torch\n##########\n# Softmax over rows\n)"
      R"(class Model(nn.Module):\n    pass\n", "custom_code": "class ModelNew: pass", "score_default": 1.5})";
  const RunFile run = readCudaL1(dir.write("hashes.jsonl", row(1, 1) + "\n" + hashes + "\n"));
  EXPECT_TRUE(run.issues.empty()) << ::testing::PrintToString(issueMessages(run));
  ASSERT_EQ(run.tasks.size(), 2u);
  EXPECT_EQ(run.tasks[1].key(), "L1/2");
  EXPECT_EQ(run.tasks[1].name, "Softmax over rows");
}

TEST(CudaL1Reader, EmptyFileIsOneIssue) {
  test::TempDir dir;
  const RunFile run = readCudaL1(dir.write("empty.jsonl", "\n  \n"));
  ASSERT_EQ(run.issues.size(), 1u);
  EXPECT_EQ(run.issues[0].line, 0);
  EXPECT_EQ(run.issues[0].message, "file is empty; expected CUDA-L1 JSON Lines, one task a line");
  EXPECT_TRUE(run.tasks.empty());
}

TEST(CudaL1Reader, UnreadablePathsAreOneIssue) {
  test::TempDir dir;
  const RunFile missing = readCudaL1(dir.path() / "nope.jsonl");
  ASSERT_EQ(missing.issues.size(), 1u);
  EXPECT_EQ(missing.issues[0].message, "cannot read: no such file or folder");
  const RunFile folder = readCudaL1(dir.path());
  ASSERT_EQ(folder.issues.size(), 1u);
  EXPECT_EQ(folder.issues[0].message, "cannot read: is a folder; expected a file");
}

TEST(CudaL1Reader, ManyBadLinesAreSummarized) {
  test::TempDir dir;
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "not json\n";
  text += row(1, 1) + "\n";
  const RunFile run = readCudaL1(dir.write("junk.jsonl", text));
  ASSERT_EQ(run.issues.size(), IssueList::kMaxListedIssues + 1);
  EXPECT_EQ(run.issues.back().message,
            "and 900 more error(s) and 0 more warning(s), not listed (only the first 100 are)");
  EXPECT_EQ(run.tasks.size(), 1u);
}

// Every row of the real release, compared with the raw JSON read independently.
TEST(CudaL1Reader, RealReleaseMatchesRawJson) {
  KS_REQUIRE_CUDA_L1();
  const RunFile run = readCudaL1(test::cudaL1File());
  EXPECT_TRUE(run.issues.empty());
  ASSERT_EQ(run.tasks.size(), 250u);
  std::ifstream in(test::cudaL1File());
  std::string line;
  std::size_t i = 0, withoutCode = 0;
  const std::pair<const char*, const char*> scores[] = {
      {"score_default", "default"},
      {"score_torch_compile_default", "torch_compile_default"},
      {"score_torch_compile_reduce_overhead", "torch_compile_reduce_overhead"},
      {"score_cuda_graph", "cuda_graph"},
      {"score_cudnn", "cudnn"}};
  while (std::getline(in, line)) {
    const auto raw = nlohmann::json::parse(line);
    const Task& t = run.tasks.at(i++);
    EXPECT_EQ(t.level, raw["level_id"].get<int>());
    EXPECT_EQ(t.number, raw["task_id"].get<int>());
    EXPECT_EQ(t.referenceCode, raw["ref_code"].get<std::string>());
    EXPECT_FALSE(t.name.empty()) << t.key();
    EXPECT_LE(t.name.size(), 80u) << t.key();
    const Candidate& c = t.candidates.at(0);
    EXPECT_EQ(c.code.has_value(), !raw["custom_code"].is_null());
    if (raw["custom_code"].is_null())
      ++withoutCode;
    else
      EXPECT_EQ(*c.code, raw["custom_code"].get<std::string>());
    for (const auto& [key, baseline] : scores) {
      const std::optional<double> expected =
          raw[key].is_null() ? std::nullopt : std::optional<double>(raw[key].get<double>());
      EXPECT_EQ(c.speedup(baseline), expected) << t.key() << " " << key;
    }
    for (const Measurement& m : c.measurements) EXPECT_EQ(m.device, "H100 (as recorded by CUDA-L1)");
    std::size_t programs = 0;
    for (const char* key : {"cuda_graph_code", "cudnn_code"}) programs += raw[key].is_null() ? 0 : 1;
    EXPECT_EQ(t.baselinePrograms.size(), programs);
  }
  EXPECT_EQ(i, 250u);
  EXPECT_EQ(withoutCode, 23u);
  EXPECT_EQ(run.findTask("L1/1")->name, "Single square matrix multiplication (C = A * B)");
}

}  // namespace
}  // namespace ks
