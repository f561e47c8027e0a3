// What kscope says to a newcomer: one task-key rule for every command that takes --task, with the closest
// keys offered for one that is not there; the closest subcommand for a word that is none; and summary
// statistics that say which set of speedups they are over, in the Charts tab's words.
#include <string>

#include "ks_test_paths.h"
#include "tests/cli/cli_test_support.h"

namespace {

using namespace ks::clitest;

constexpr char kNoRunner[] = "/nonexistent/kscope-runner";

class KscopeMessages : public CliTest {
 protected:
  // A CUDA-L1 file of two tasks, L1/12 and L2/5, each with a program.
  fs::path twoTasks() {
    const std::string reference =
        "import torch\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n"
        "def get_inputs():\n    return [torch.randn(8)]\ndef get_init_inputs():\n    return []\n";
    const std::string program =
        "import torch\nclass ModelNew(torch.nn.Module):\n    def forward(self, x):\n        return x + x\n";
    std::string text;
    for (auto [level, number] : {std::pair{1, 12}, {2, 5}})
      text +=
          json{{"level_id", level}, {"task_id", number}, {"ref_code", reference}, {"custom_code", program}}
              .dump() +
          "\n";
    return write("two.jsonl", text);
  }
};

// `kscope run FILE --task 1/12` used to stop at "has no task 1/12" while `kscope check` took it. Every
// command now reads --task through core/model/task_lookup.h: "1/12" reaches the next step (here the runner
// that is not there), and an unknown key names the closest.
TEST_F(KscopeMessages, EveryCommandTakesTheTaskKeysCheckTakes) {
  const fs::path file = twoTasks();
  Result r = kscope("run " + quoted(file) + " --task 1/12 --no-store --runner " + kNoRunner);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "kscope run: error: " + std::string(kNoRunner) +
                       " is not an executable file: pass the path of kscope-runner\n")
      << "the task was found; only the runner is missing";

  r = kscope("batch " + quoted(file) + " --task 1/12 --no-store --out " + quoted(dir_ / "out.jsonl") +
             " --runner " + kNoRunner);
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("kscope batch: error: " + std::string(kNoRunner) + " is not an executable file"),
            std::string::npos)
      << r.err;

  r = kscope("check " + quoted(file) + " --task l2/5 --json");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  ASSERT_EQ(parse(r)["candidates"].size(), 1u);
  EXPECT_EQ(parse(r)["candidates"][0]["task"], "L2/5");

  if (kscope("report --help").exitCode == 0) {  // built with Qt only
    r = kscope("report " + quoted(file) + " --task 1/12 --no-history --out " + quoted(dir_ / "r.html"));
    EXPECT_EQ(r.exitCode, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir_ / "r.html")) << r.err;
    EXPECT_NE(slurp(dir_ / "r.html").find("L1/12"), std::string::npos);
  }
}

TEST_F(KscopeMessages, AnUnknownTaskOffersTheClosestKeyInEveryCommand) {
  const fs::path file = twoTasks();
  const std::string offered = "no task L1/13 in " + file.string() + "; did you mean L1/12?";
  Result r = kscope("run " + quoted(file) + " --task L1/13 --no-store --runner " + kNoRunner);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "kscope run: error: " + offered + "\n");

  r = kscope("check " + quoted(file) + " --task L1/13");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "kscope: " + offered + "\n");

  // batch used to plan nothing for a key it did not know, and exit 0.
  r = kscope("batch " + quoted(file) + " --task L1/13 --no-store --out " + quoted(dir_ / "out.jsonl") +
             " --runner " + kNoRunner);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "kscope batch: error: " + offered + "\n");

  r = kscope("check " + quoted(file) + " --task 2/6 --compile");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err,
            "kscope check --compile: error: no task 2/6 in " + file.string() + "; did you mean L2/5?\n");

  if (kscope("report --help").exitCode == 0) {
    r = kscope("report " + quoted(file) + " --task L1/13 --no-history --out " + quoted(dir_ / "r.html"));
    EXPECT_EQ(r.exitCode, 2);
    EXPECT_EQ(r.err, "kscope report: " + offered + "\n");
  }
}

// "kscope summarize" used to answer "A subcommand is required".
TEST_F(KscopeMessages, AnUnknownCommandNamesTheClosest) {
  Result r = kscope("summarize " + quoted(dir_ / "x.jsonl"));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "kscope: unknown command 'summarize'; did you mean 'summary'?\n");
  EXPECT_EQ(r.out, "");
  r = kscope("chek --json x.jsonl");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err, "kscope: unknown command 'chek'; did you mean 'check'?\n");
  r = kscope("frobnicate");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_EQ(r.err.rfind("kscope: unknown command 'frobnicate' (commands: batch, check, import, ", 0), 0u)
      << r.err;
  EXPECT_NE(r.err.find("summary"), std::string::npos) << r.err;
  // No word at all is still CLI11's own usage error.
  r = kscope("");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("A subcommand is required"), std::string::npos) << r.err;
}

// The CUDA-L1 release: summary's median 1.36 and max 368.2 are over all recorded speedups, the Charts tab's
// 1.339x and 81.92x over the 196 shown as wins. Each is labelled with its set, in the same words, and both
// are printed.
TEST_F(KscopeMessages, SummarySaysWhichSetEachStatisticIsOver) {
  if (!fs::exists(kCudaL1)) GTEST_SKIP() << "CUDA-L1 dataset not found at " << kCudaL1;
  const Result text = kscope("summary " + quoted(kCudaL1));
  ASSERT_EQ(text.exitCode, 0) << text.err;
  const auto row = [&](const std::string& label) {
    const std::size_t at = text.out.find("\n" + label + " ");
    return at == std::string::npos ? std::string()
                                   : text.out.substr(at + 1, text.out.find('\n', at + 1) - at - 1);
  };
  const std::string all = row("all recorded"), wins = row("shown as wins");
  EXPECT_NE(all.find(" 227 "), std::string::npos) << all;
  EXPECT_NE(all.find(" 1.36 "), std::string::npos) << all;
  EXPECT_NE(all.find(" 368.20 "), std::string::npos) << all;
  EXPECT_NE(wins.find(" 196 "), std::string::npos) << wins;
  EXPECT_NE(wins.find(" 1.34 "), std::string::npos) << wins;
  EXPECT_NE(wins.find(" 81.92 "), std::string::npos) << wins;
  EXPECT_NE(
      text.out.find("shown as wins: as the Charts tab, 227 candidates with a speedup · of the 196 shown as "
                    "wins · 31 caught hacks not shown as wins"),
      std::string::npos)
      << text.out;

  const Result r = kscope("summary --json " + quoted(kCudaL1));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const json f = parse(r)["files"][0];
  EXPECT_EQ(f["sets"]["overall"], "all recorded");
  EXPECT_EQ(f["sets"]["wins"], "shown as wins");
  EXPECT_EQ(f["wins"]["with_speedup"], 196);
  EXPECT_NEAR(f["wins"]["median"].get<double>(), 1.339, 0.0005);
  EXPECT_NEAR(f["wins"]["max"].get<double>(), 81.92, 0.005);
  EXPECT_EQ(f["not_wins"]["caught_hacks"], 31);
  EXPECT_EQ(f["not_wins"]["fallback_timed"], 0);
  EXPECT_NEAR(f["overall"]["median"].get<double>(), 1.36, 1e-12) << "all recorded, as before";
}

}  // namespace
