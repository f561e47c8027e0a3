// Runs the built kscope binary (KSCOPE_BINARY) on the real CUDA-L1 release and on small temporary files,
// and checks exit codes, stderr messages and the JSON it prints.
#include <algorithm>
#include <set>
#include <string>

#include "tests/cli/cli_test_support.h"
#include "ks_test_paths.h"

namespace {

using namespace ks::clitest;


#define REQUIRE_CUDA_L1()                                    \
  if (!fs::exists(kCudaL1))                                  \
  GTEST_SKIP() << "CUDA-L1 dataset not found at " << kCudaL1 \
               << " (expected ../shared/datasets next to the repo)"

class KscopeCli : public CliTest {};

TEST_F(KscopeCli, HelpListsTheCommands) {
  const Result r = kscope("--help");
  EXPECT_EQ(r.exitCode, 0);
  for (const char* command : {"summary", "check", "import"})
    EXPECT_NE(r.out.find(command), std::string::npos) << command;
}

TEST_F(KscopeCli, UsageErrorExitsTwo) {
  const Result r = kscope("summary");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("files is required"), std::string::npos) << r.err;
}

TEST_F(KscopeCli, SummaryJsonOfTheRealRelease) {
  REQUIRE_CUDA_L1();
  const Result r = kscope("summary --json " + quoted(kCudaL1.string()));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json j = parse(r);
  EXPECT_EQ(j["speedup_threshold"], 1.01);
  ASSERT_EQ(j["files"].size(), 1u);
  const json& f = j["files"][0];
  EXPECT_EQ(f["loaded"], true);
  EXPECT_EQ(f["format"], "cuda-l1");
  EXPECT_EQ(f["tasks"], 250);
  EXPECT_EQ(f["candidates"], 250);
  EXPECT_EQ(f["errors"], 0);
  EXPECT_EQ(f["overall"]["count"], 250);
  EXPECT_EQ(f["overall"]["with_code"], 227);
  EXPECT_EQ(f["overall"]["with_speedup"], 227);
  EXPECT_NEAR(f["overall"]["median"].get<double>(), 1.36, 1e-12);
  EXPECT_EQ(f["overall"], f["by_baseline"]["default"]);
  EXPECT_EQ(f["by_level"]["1"]["count"], 100);
  EXPECT_EQ(f["by_level"]["2"]["count"], 100);
  EXPECT_EQ(f["by_level"]["3"]["count"], 50);
  for (const char* b :
       {"default", "torch_compile_default", "torch_compile_reduce_overhead", "cuda_graph", "cudnn"})
    EXPECT_TRUE(f["by_baseline"].contains(b)) << b;
  EXPECT_EQ(f["by_baseline"]["cuda_graph"]["with_speedup"], 222);
  const json& flags = f["static_flags"];
  EXPECT_EQ(flags["checked"], 227);
  ASSERT_FALSE(flags["families"].empty());
  for (const json& family : flags["families"]) {
    EXPECT_FALSE(family["id"].get<std::string>().empty());
    // Flagged means a hack or suspicious flag (docs/cli.md, "Flagged"): a benign family may reach more.
    if (family["severity"] != "benign") {
      EXPECT_LE(family["candidates"].get<int>(), flags["flagged"].get<int>()) << family["id"];
    }
    EXPECT_GE(family["flags"].get<int>(), family["candidates"].get<int>());
  }
}

TEST_F(KscopeCli, SummaryTextIsATable) {
  REQUIRE_CUDA_L1();
  const Result r = kscope("summary " + quoted(kCudaL1.string()));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  for (const char* text : {"250 tasks, 250 candidates", "level 3", "torch_compile_reduce_overhead", "geomean",
                           "static flags: 227 candidates with a program checked"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text << "\n" << r.out;
}

TEST_F(KscopeCli, UnreadableInputExitsTwoAndNamesTheFile) {
  const fs::path missing = dir_ / "missing.jsonl";
  Result r = kscope("summary " + quoted(missing.string()));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, missing.string() + ": error: cannot read: no such file or folder\n");
  r = kscope("check " + quoted(dir_.string()));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find(dir_.string() + ": error: folder is not a KernelBench task folder"), std::string::npos)
      << r.err;
  r = kscope("summary --json " + quoted(write("bin.jsonl", std::string("\0\1\2", 3)).string()));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(parse(r)["files"][0]["loaded"], false);
  EXPECT_NE(r.err.find("binary file"), std::string::npos) << r.err;
}

// A run folder KernelBench's scripts write, with KernelBench/ and results/timing/ above it: the recorded
// runtime over the reference's time is the speedup.
TEST_F(KscopeCli, SummaryOfAKernelBenchRunFolder) {
  for (const char* folder : {"KernelBench/level1", "results/timing/L40S", "runs/demo"})
    fs::create_directories(dir_ / folder);
  write("KernelBench/level1/1_Square_matrix_multiplication_.py", "class Model: pass\n");
  write("results/timing/L40S/baseline_time_torch.json",
        R"({"level1": {"1_Square_matrix_multiplication_.py": {"mean": 3.0}}})");
  write("runs/demo/level_1_problem_1_sample_0_kernel.py", "class ModelNew: pass\n");
  write("runs/demo/eval_results.json",
        R"({"1": [{"sample_id": 0, "compiled": true, "correctness": true, "runtime": 1.5}]})");
  const Result r = kscope("summary --json " + quoted((dir_ / "runs/demo").string()));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const json j = parse(r);
  const json& f = j["files"][0];
  EXPECT_EQ(f["format"], "kernelbench-run");
  EXPECT_EQ(f["tasks"], 1);
  EXPECT_EQ(f["candidates"], 1);
  EXPECT_EQ(f["overall"]["with_speedup"], 1);
  EXPECT_NEAR(f["overall"]["median"].get<double>(), 2.0, 1e-12);
}

TEST_F(KscopeCli, LoadErrorsGoToStderrAndExitOne) {
  const fs::path file =
      write("bad.jsonl",
            R"({"level_id": 1, "task_id": 1, "ref_code": "x", "custom_code": "y", "score_default": 2.0})"
            "\n"
            R"({"level_id": 1, "task_id": "two", "ref_code": "x"})"
            "\n");
  const Result r = kscope("summary --json " + quoted(file.string()));
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(
      r.err,
      file.string() +
          ":2: error: expected key \"task_id\" to be an integer >= 0, got string \"two\"; line skipped\n");
  const json f = parse(r)["files"][0];
  EXPECT_EQ(f["loaded"], true);
  EXPECT_EQ(f["tasks"], 1);
  EXPECT_EQ(f["errors"], 1);
  EXPECT_EQ(f["issues"][0]["line"], 2);
  EXPECT_EQ(f["overall"]["median"], 2.0);
}

// A number beyond double's range makes nlohmann throw out_of_range, not parse_error: it is still one bad
// line, not the end of the file.
TEST_F(KscopeCli, NumberOverflowIsALineError) {
  const fs::path file =
      write("huge.jsonl",
            R"({"level_id": 1, "task_id": 1, "ref_code": "x", "custom_code": "y", "score_default": 2.0})"
            "\n"
            R"({"level_id": 1, "task_id": 2, "ref_code": "x", "custom_code": "y", "score_default": 1e400})"
            "\n");
  const Result r = kscope("summary --json " + quoted(file.string()));
  EXPECT_EQ(r.exitCode, 1) << r.err;
  EXPECT_NE(r.err.find(file.string() + ":2: error: not valid JSON: number overflow parsing '1e400'"),
            std::string::npos)
      << r.err;
  const json f = parse(r)["files"][0];
  EXPECT_EQ(f["loaded"], true);
  EXPECT_EQ(f["tasks"], 1);
  EXPECT_EQ(f["errors"], 1);
}

TEST_F(KscopeCli, SummaryOfSeveralFilesReportsEach) {
  const fs::path good =
      write("good.jsonl", R"({"level_id": 2, "task_id": 5, "ref_code": "x", "custom_code": null})");
  const Result r =
      kscope("summary --json " + quoted(good.string()) + " " + quoted((dir_ / "gone.jsonl").string()));
  EXPECT_EQ(r.exitCode, 2);
  const json j = parse(r);
  ASSERT_EQ(j["files"].size(), 2u);
  EXPECT_EQ(j["files"][0]["loaded"], true);
  EXPECT_EQ(j["files"][0]["overall"]["with_speedup"], 0);
  EXPECT_TRUE(j["files"][0]["overall"]["median"].is_null());
  EXPECT_EQ(j["files"][1]["loaded"], false);
}

// Every flag's lines point into the candidate's program.
TEST_F(KscopeCli, CheckFlagsCarryLinesInsideTheProgram) {
  REQUIRE_CUDA_L1();
  const Result r = kscope("check --json " + quoted(kCudaL1.string()));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const json j = parse(r);
  EXPECT_EQ(j["format"], "cuda-l1");
  EXPECT_EQ(j["checked"], 227);
  ASSERT_EQ(j["candidates"].size(), 250u);
  std::ifstream in(kCudaL1);
  std::size_t i = 0, flagged = 0;
  for (std::string line; std::getline(in, line); ++i) {
    const json raw = json::parse(line);
    const json& c = j["candidates"][i];
    EXPECT_EQ(c["task"], "L" + std::to_string(raw["level_id"].get<int>()) + "/" +
                             std::to_string(raw["task_id"].get<int>()));
    EXPECT_EQ(c["has_code"], !raw["custom_code"].is_null());
    if (c["flags"].empty()) continue;
    // Flagged: a hack or suspicious flag, as the GUI counts (docs/cli.md, "Flagged").
    if (std::any_of(c["flags"].begin(), c["flags"].end(),
                    [](const json& flag) { return flag["severity"] != "benign"; }))
      ++flagged;
    const std::string code = raw["custom_code"].get<std::string>();
    const long lines = std::count(code.begin(), code.end(), '\n') + 1;
    for (const json& flag : c["flags"]) {
      EXPECT_FALSE(flag["message"].get<std::string>().empty());
      for (const json& n : flag["lines"]) {
        EXPECT_GE(n.get<long>(), 1) << c["task"];
        EXPECT_LE(n.get<long>(), lines) << c["task"];
      }
    }
  }
  EXPECT_EQ(j["flagged"], flagged);
}

TEST_F(KscopeCli, CheckOneTask) {
  REQUIRE_CUDA_L1();
  for (const char* task : {"L1/2", "1/2"}) {
    const Result r = kscope("check --json --task " + std::string(task) + " " + quoted(kCudaL1.string()));
    ASSERT_EQ(r.exitCode, 0) << r.err;
    const json j = parse(r);
    ASSERT_EQ(j["candidates"].size(), 1u);
    EXPECT_EQ(j["candidates"][0]["task"], "L1/2");
    EXPECT_EQ(j["candidates"][0]["has_code"], false);  // CUDA-L1 recorded no program for L1/2
    EXPECT_EQ(j["checked"], 0);
  }
  const Result text = kscope("check --task L1/2 " + quoted(kCudaL1.string()));
  EXPECT_NE(text.out.find("L1/2  cuda-l1  (line 2)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("no program recorded"), std::string::npos) << text.out;
  const Result unknown = kscope("check --task L9/99 " + quoted(kCudaL1.string()));
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.err.find("no task L9/99 in " + kCudaL1.string()), std::string::npos) << unknown.err;
}

// The static rules scored on the labelled corpus: recall 1.0 on every family the manifest marks statically
// detectable, no hack flag on a control, impossible-time (measured only) not applicable.
TEST_F(KscopeCli, CheckCorpusScoresTheStaticRules) {
  const fs::path corpus = fs::path(KS_SOURCE_DIR) / "tests" / "hacks";
  const Result r = kscope("check --corpus " + quoted(corpus.string()) + " --json");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const json j = parse(r);
  const json manifest = json::parse(slurp(corpus / "manifest.json"));
  EXPECT_EQ(j["channel"], "static");
  EXPECT_EQ(j["entries"], manifest.size());
  // Counts from the manifest itself (kscope reads it; the numbers change with the corpus, not here).
  std::size_t controls = 0;
  std::set<std::string> staticFamilies;
  for (const json& e : manifest) {
    controls += e["family"] == "control";
    const json detectable = e.value("detectable", json::array());
    if (e["family"] != "control" && e["family"] != "impossible-time" &&
        std::find(detectable.begin(), detectable.end(), "static") != detectable.end())
      staticFamilies.insert(e["family"].get<std::string>());
  }
  EXPECT_EQ(j["controls"], controls);
  EXPECT_EQ(j["hack_flags_on_controls"], 0);
  EXPECT_TRUE(j["errors"].empty());
  ASSERT_EQ(j["results"].size(), manifest.size());
  for (const json& f : j["flagged_controls"]) EXPECT_NE(f["severity"], "hack") << f["path"];
  int scored = 0;
  for (const json& family : j["families"]) {
    const std::string id = family["family"];
    bool statically = false;
    for (const json& e : manifest) {
      const json detectable = e.value("detectable", json::array());
      statically = statically || (e["family"] == id && std::find(detectable.begin(), detectable.end(),
                                                                 "static") != detectable.end());
    }
    if (id == "impossible-time") {
      EXPECT_EQ(family["rules"], false);
      EXPECT_EQ(family["not_applicable"], family["entries"]);
      EXPECT_TRUE(family["recall"].is_null());
      continue;
    }
    if (!statically) continue;
    ++scored;
    EXPECT_EQ(family["recall"], 1.0) << id;
    EXPECT_EQ(family["fn"], 0) << id;
    EXPECT_TRUE(family["missed"].empty()) << id;
  }
  // Every family with a statically detectable entry is scored (stale-memory and nonfinite-output, among
  // others, have runtime-only entries too; the measured families none).
  EXPECT_EQ(scored, static_cast<int>(staticFamilies.size()));
  EXPECT_GT(scored, 0);

  const Result text = kscope("check --corpus " + quoted(corpus.string()));
  ASSERT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("family                 rules  entries  tp  fp  fn"), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("hack flags on controls: 0"), std::string::npos) << text.out;
}

TEST_F(KscopeCli, CheckNeedsAFileOrACorpusButNotBoth) {
  Result r = kscope("check");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("expected FILE or --corpus DIR"), std::string::npos) << r.err;
  r = kscope("check " + quoted(kCudaL1.string()) + " --corpus " + quoted(dir_.string()));
  EXPECT_EQ(r.exitCode, 2);
  r = kscope("check --corpus " + quoted(dir_.string()));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find((dir_ / "manifest.json").string() + ": cannot read"), std::string::npos) << r.err;
  write("manifest.json", R"([{"path": "gone.py", "reference": "gone_ref.py", "family": "gc-scan"}])");
  r = kscope("check --corpus " + quoted(dir_.string()) + " --json");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("entry 0: cannot read the candidate"), std::string::npos) << r.err;
  EXPECT_EQ(parse(r)["errors"].size(), 1u);
}

// `check --json` printed nothing on stdout when it exited 2; docs/cli.md promises JSON always.
TEST_F(KscopeCli, CheckJsonPrintsADocumentEvenWhenItStops) {
  Result r = kscope("check --json " + quoted((dir_ / "missing.jsonl").string()));
  EXPECT_EQ(r.exitCode, 2);
  json j = parse(r);
  EXPECT_EQ(j["checked"], 0);
  EXPECT_NE(j["error"].get<std::string>().find("missing.jsonl: error: cannot read: no such file or folder"),
            std::string::npos)
      << r.out;
  r = kscope("check --corpus " + quoted(dir_.string()) + " --json");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(parse(r)["error"].get<std::string>().find("manifest.json"), std::string::npos) << r.out;
  const fs::path one =
      write("one.jsonl", R"({"level_id": 1, "task_id": 1, "ref_code": "x", "custom_code": "y"})"
                         "\n");
  r = kscope("check --json --task L9/9 " + quoted(one.string()));
  EXPECT_EQ(r.exitCode, 2);
  j = parse(r);
  EXPECT_EQ(j["format"], "cuda-l1");
  EXPECT_TRUE(j["error"].get<std::string>().starts_with("no task L9/9 in ")) << r.out;
}

TEST_F(KscopeCli, ImportWritesARunWithTheSameStatistics) {
  REQUIRE_CUDA_L1();
  const fs::path out = dir_ / "cuda-l1.kscope.jsonl";
  const Result r = kscope("import " + quoted(kCudaL1.string()) + " -o " + quoted(out.string()));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, "wrote " + out.string() + ": 250 tasks, 250 candidates (kscope-run version 1)\n");
  std::ifstream in(out);
  std::string header;
  std::getline(in, header);
  EXPECT_EQ(json::parse(header)["kscope_run"], 1);

  const json before = parse(kscope("summary --json " + quoted(kCudaL1.string())))["files"][0];
  const json after = parse(kscope("summary --json " + quoted(out.string())))["files"][0];
  EXPECT_EQ(after["format"], "kscope-run");
  EXPECT_EQ(after["title"], "CUDA-L1 h100.jsonl");
  for (const char* key : {"tasks", "candidates", "overall", "by_level", "by_baseline", "static_flags"})
    EXPECT_EQ(before[key], after[key]) << key;
}

TEST_F(KscopeCli, ImportFailuresExitTwo) {
  const fs::path input = write("in.jsonl", R"({"level_id": 1, "task_id": 1, "ref_code": "x"})");
  const fs::path out = dir_ / "no-such-folder" / "out.jsonl";
  Result r = kscope("import " + quoted(input.string()) + " -o " + quoted(out.string()));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("kscope: cannot write " + out.string() + ": "), std::string::npos) << r.err;
  r = kscope("import " + quoted((dir_ / "none.jsonl").string()) + " -o " +
             quoted((dir_ / "x.jsonl").string()));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_FALSE(fs::exists(dir_ / "x.jsonl"));
}

}  // namespace

// ---- CUDA-L2 and good-kernels (docs/formats.md) -----------------------------------------------------------

const fs::path kCudaL2 = fs::path(KS_SHARED_DIR) / "datasets/cuda-l2";
const fs::path kGoodKernels = fs::path(KS_SHARED_DIR) / "datasets/good-kernels";

TEST_F(KscopeCli, SummaryOfTheCudaL2ReleaseIsPerBaselineAndMode) {
  if (!fs::exists(kCudaL2 / "kernels")) GTEST_SKIP() << "CUDA-L2 dataset not found at " << kCudaL2;
  const Result r = kscope("summary " + quoted(kCudaL2.string()));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("(cuda-l2: 1000 tasks, 1000 candidates, 0 errors, 0 warnings)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("torch.matmul (offline)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cuBLASLt-auto-tuning-max (server)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("vs default"), std::string::npos) << "nothing is recorded against \"default\"";
  const Result one = kscope("check --task 1024x1024x1024 " + quoted(kCudaL2.string()));
  EXPECT_EQ(one.exitCode, 0) << one.err;
  EXPECT_NE(one.out.find("h100_F32F16F16F32/1024x1024x1024"), std::string::npos) << one.out;
}

TEST_F(KscopeCli, GoodKernelsTasksAreAddressedByFolderName) {
  if (!fs::exists(kGoodKernels / "LayerNorm"))
    GTEST_SKIP() << "good-kernels dataset not found at " << kGoodKernels;
  const Result r = kscope("summary --json " + quoted(kGoodKernels.string()));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["files"][0]["format"], "good-kernels");
  EXPECT_EQ(j["files"][0]["tasks"], 6);
  EXPECT_EQ(j["files"][0]["overall"]["with_speedup"], 0);
  ASSERT_EQ(j["files"][0]["task_notes"].size(), 1u);
  EXPECT_EQ(j["files"][0]["task_notes"][0]["tasks"], 6);
  const Result text = kscope("summary " + quoted(kGoodKernels.string()));
  EXPECT_NE(text.out.find("every task: No recorded measurements"), std::string::npos) << text.out;
  const Result check = kscope("check --task LayerNorm " + quoted(kGoodKernels.string()));
  EXPECT_EQ(check.exitCode, 0) << check.err;
  EXPECT_NE(check.out.find("LayerNorm  src.py"), std::string::npos) << check.out;
  const Result softmax = kscope("check --task Softmax " + quoted(kGoodKernels.string()));
  EXPECT_EQ(softmax.exitCode, 0) << softmax.err << " (a key not starting with L is not given an L)";
  const Result unknown = kscope("check --task Nope " + quoted(kGoodKernels.string()));
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.err.find("no task Nope"), std::string::npos) << unknown.err;
}
