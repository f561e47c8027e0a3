// kscope run, kscope batch and kscope check --run end to end on the CPU, through the real kscope-runner built
// next to kscope (skipped when the build has no runner: KSCOPE_ENGINE off). Every command gets a store in
// the test's temporary folder, or --no-store, and XDG_DATA_HOME/XDG_CACHE_HOME/KSCOPE_RESULTS_DB pointing
// there too, so nothing is written to the user's database or caches.
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/supervisor/supervisor_options.h"
#include "tests/cli/cli_test_support.h"
#include "ks_test_paths.h"

namespace {

using namespace ks::clitest;

const fs::path kRunner = fs::path(KSCOPE_BINARY).parent_path() / "kscope-runner";
const fs::path kSample = fs::path(KS_SOURCE_DIR) / "sample_runs/fused-elementwise.kscope.jsonl";
const fs::path kHacks = fs::path(KS_SOURCE_DIR) / "tests/hacks";

#define REQUIRE_RUNNER()                                                                                \
  if (!fs::exists(kRunner))                                                                             \
  GTEST_SKIP() << "kscope-runner not found at " << kRunner                                              \
               << ": this build has no runner (KSCOPE_ENGINE=OFF, or libtorch/pybind11 not found), so " \
                  "kscope run, batch and check --run cannot be tested"

class KscopeRunCli : public CliTest {
 protected:
  // Runs kscope with the user's data, cache and store locations moved into the test's folder.
  Result kscopeHere(const std::string& args) {
    return kscope(args, environment());
  }
  // XDG_RUNTIME_DIR too: a `kscope serve` socket lives there, so no test finds a server it did not start.
  // A short path of its own: a socket's path must fit in 108 bytes, and dir_ is long.
  std::string environment() const {
    return "XDG_DATA_HOME=" + quoted(dir_ / "data") + " XDG_CACHE_HOME=" + quoted(dir_ / "cache") +
           " XDG_RUNTIME_DIR=" + quoted(runtimeDir_) + " KSCOPE_RESULTS_DB=" + quoted(dir_ / "default-store.sqlite");
  }
  void SetUp() override {
    CliTest::SetUp();
    runtimeDir_ = fs::temp_directory_path() / ("ksrt-" + std::to_string(getpid()));
    fs::create_directories(runtimeDir_);
  }
  void TearDown() override {
    fs::remove_all(runtimeDir_);
    CliTest::TearDown();
  }
  fs::path runtimeDir_;

  // A kscope run file (docs/run-format.md) of `tasks`: {level, number, reference, candidates {id -> code}}.
  struct TaskSpec {
    int level, number;
    std::string reference;
    std::vector<std::pair<std::string, std::string>> candidates;
  };
  fs::path writeRun(const std::string& name, const std::vector<TaskSpec>& tasks) {
    std::string text = json{{"kscope_run", 1}, {"title", name}}.dump() + "\n";
    for (const TaskSpec& t : tasks) {
      text += json{{"type", "task"},
                   {"level", t.level},
                   {"number", t.number},
                   {"name", "task_" + std::to_string(t.number)},
                   {"reference", {{"language", "python"}, {"code", t.reference}}}}
                  .dump() +
              "\n";
      for (const auto& [id, code] : t.candidates)
        text += json{{"type", "candidate"},
                     {"task", "L" + std::to_string(t.level) + "/" + std::to_string(t.number)},
                     {"id", id},
                     {"code", code}}
                    .dump() +
                "\n";
    }
    return write(name, text);
  }

  // Complete JSON lines of a JSONL file (a line that does not parse is left out).
  static std::vector<json> jsonLines(const fs::path& path) {
    std::vector<json> lines;
    std::istringstream in(slurp(path));
    for (std::string line; std::getline(in, line);) {
      json j = json::parse(line, nullptr, false);
      if (!j.is_discarded()) lines.push_back(std::move(j));
    }
    return lines;
  }
};

// A KernelBench program of the elementwise kind: `body` is forward's return expression over x.
std::string program(const std::string& cls, const std::string& body) {
  return "import torch\nimport torch.nn as nn\n\n\nclass " + cls +
         "(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n    def forward(self, x):\n"
         "        return " +
         body +
         "\n\n\ndef get_inputs():\n    return [torch.randn(64, 128)]\n\n\ndef get_init_inputs():\n"
         "    return []\n";
}

// ---- kscope run
// ---------------------------------------------------------------------------------------------

// The bundled sample with its tensor cut from 2048 x 4096 to 64 x 4096: the same programs and path, at a
// size whose reference call takes milliseconds on a CPU instead of 0.6 s (the full one spent 160 s here).
TEST_F(KscopeRunCli, RunsAPurePyTorchSampleCandidate) {
  REQUIRE_RUNNER();
  std::string text = slurp(kSample);
  for (std::size_t at; (at = text.find("batch_size = 2048")) != std::string::npos;)
    text.replace(at, 17, "batch_size = 64");
  const fs::path sample = write("fused-elementwise-small.kscope.jsonl", text);
  const fs::path store = dir_ / "results.sqlite";
  const Result r =
      kscopeHere("run " + quoted(sample) + " --task L2/901 --candidate r1 --device cpu --trials 3 " +
                 "--json --store " + quoted(store));
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const json j = parse(r);
  EXPECT_EQ(j["file"], sample.string());
  EXPECT_EQ(j["task"], "L2/901");
  EXPECT_EQ(j["candidate"], "r1");
  EXPECT_GT(j["source_line"].get<int>(), 1);
  EXPECT_EQ(j["code_hash"].get<std::string>().rfind("sha256:", 0), 0u) << j["code_hash"];
  EXPECT_EQ(j["outcome"], "correct");
  if (j.contains("recorded_speedup")) {
    EXPECT_TRUE(j["recorded_speedup"].is_number());
  }
  const json& event = j["event"];
  EXPECT_EQ(event["event"], "result");
  EXPECT_EQ(event["ok"], true);
  const json& result = event["result"];
  EXPECT_EQ(result["device"], "cpu");
  EXPECT_EQ(result["correctness"]["passed"], true);
  EXPECT_EQ(result["timing"]["trials"], 3);
  EXPECT_TRUE(result["timing"]["speedup"].is_number()) << result["timing"];
  EXPECT_GT(result["timing"]["speedup"].get<double>(), 0);
  ASSERT_TRUE(j["stored"].is_object()) << j["stored"];
  EXPECT_EQ(j["stored"]["path"], store.string());
  EXPECT_GE(j["stored"]["id"].get<int>(), 1);
  EXPECT_TRUE(fs::exists(store));
  EXPECT_FALSE(fs::exists(dir_ / "default-store.sqlite"));
  EXPECT_NE(r.err.find("correctness"), std::string::npos) << "phases go to stderr: " << r.err;
}

// `kscope serve` keeps a runner up; `kscope run` with the same --device finds it by itself, a candidate that
// kills its runner is reported to its caller while the server carries on with a fresh runner, --no-server
// opts out, and SIGTERM stops the server with its socket removed.
TEST_F(KscopeRunCli, ServeKeepsARunnerUpThatRunUsesAndACrashDoesNotEnd) {
  REQUIRE_RUNNER();
  const fs::path log = dir_ / "serve.log";
  const std::string start = "env " + environment() + " " + quoted(std::string(KSCOPE_BINARY)) +
                            " serve --device cpu --idle-exit 300 > " + quoted(log) + " 2>&1 & echo $! > " +
                            quoted(dir_ / "serve.pid");
  ASSERT_EQ(std::system(start.c_str()), 0);
  const pid_t server = std::stoi(slurp(dir_ / "serve.pid"));
  struct StopServer {
    pid_t pid;
    ~StopServer() { kill(pid, SIGKILL); }
  } stopAtTheEnd{server};
  const auto started = std::chrono::steady_clock::now();
  while (slurp(log).find("warmed up") == std::string::npos &&
         std::chrono::steady_clock::now() - started < std::chrono::seconds(120))
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_NE(slurp(log).find("warmed up"), std::string::npos) << slurp(log);

  const fs::path run = writeRun("serve.kscope.jsonl",
                                {{1, 5, program("Model", "torch.relu(x)"),
                                  {{"good", program("ModelNew", "torch.clamp_min(x, 0)")},
                                   {"aborts", program("ModelNew", "__import__('os').abort()")}}}});
  const std::string sample = "run " + quoted(run) + " --task L1/5 --candidate good --device cpu --trials 3 --json --no-store";
  const Result first = kscopeHere(sample);
  ASSERT_EQ(first.exitCode, 0) << first.err << first.out;
  const json j = parse(first);
  ASSERT_TRUE(j["server"].is_string()) << j.dump();
  EXPECT_NE(first.err.find("on the runner of kscope serve"), std::string::npos) << first.err;
  // A runner always has a memory limit, and the result says which and why.
  EXPECT_GT(j["memory_limit"]["mib"].get<std::uint64_t>(), 2000u) << j.dump();
  EXPECT_TRUE(j["memory_limit"]["why"].get<std::string>().find("(default: 3/4 of this machine's") !=
              std::string::npos)
      << j.dump();
  EXPECT_EQ(j["outcome"], "correct");
  const json& result = j["event"]["result"];
  EXPECT_EQ(result["timing"]["trials"], 3);

  const Result crashed =
      kscopeHere("run " + quoted(run) + " --task L1/5 --candidate aborts --device cpu --json --no-store");
  EXPECT_EQ(crashed.exitCode, 2) << crashed.err << crashed.out;
  const json c = parse(crashed);
  EXPECT_TRUE(c["server"].is_string());
  EXPECT_EQ(c["event"]["event"], "error") << c.dump();
  EXPECT_EQ(c["event"]["error"]["kind"], "crash") << c.dump();
  EXPECT_NE(c["event"]["error"]["message"].get<std::string>().find("SIGABRT"), std::string::npos) << c.dump();

  const Result again = kscopeHere(sample);
  ASSERT_EQ(again.exitCode, 0) << again.err << again.out << slurp(log);
  EXPECT_TRUE(parse(again)["server"].is_string());
  const Result own = kscopeHere(sample + " --no-server");
  ASSERT_EQ(own.exitCode, 0) << own.err;
  EXPECT_TRUE(parse(own)["server"].is_null());

  const fs::path socket = j["server"].get<std::string>();
  EXPECT_TRUE(fs::exists(socket));
  // Alive: exists and is not a zombie (the orphaned server's new parent may reap it late).
  auto alive = [](pid_t pid) {
    const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
  };
  ASSERT_EQ(kill(server, SIGTERM), 0);
  for (auto t = std::chrono::steady_clock::now();
       alive(server) && std::chrono::steady_clock::now() - t < std::chrono::seconds(20);)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(alive(server)) << "kscope serve did not stop on SIGTERM";
  EXPECT_FALSE(fs::exists(socket));
  const std::string text = slurp(log);
  EXPECT_NE(text.find("crash error"), std::string::npos) << text;
  EXPECT_NE(text.find("stopped after 3 request(s)"), std::string::npos) << text;
}

TEST_F(KscopeRunCli, WrongValuesAreIncorrectAndExitOne) {
  REQUIRE_RUNNER();
  const fs::path code = write("wrong.py", program("ModelNew", "torch.relu(x) + 1.0"));
  const fs::path run = writeRun("one.kscope.jsonl", {{1, 5, program("Model", "torch.relu(x)"), {}}});
  const Result r = kscopeHere("run " + quoted(run) + " --code " + quoted(code) +
                              " --device cpu --trials 3 --json --no-store");
  EXPECT_EQ(r.exitCode, 1) << r.err << r.out;
  const json j = parse(r);
  EXPECT_EQ(j["task"], "L1/5");
  EXPECT_EQ(j["candidate"], code.string());
  EXPECT_FALSE(j.contains("source_line"));  // --code: not from a line of FILE
  EXPECT_EQ(j["outcome"], "incorrect");
  EXPECT_EQ(j["event"]["event"], "result");
  EXPECT_EQ(j["event"]["result"]["correctness"]["passed"], false);
  EXPECT_TRUE(j["stored"].is_null());
}

TEST_F(KscopeRunCli, ARuntimeErrorNamesItsKindAndLineAndExitsTwo) {
  REQUIRE_RUNNER();
  const std::string candidate = program("ModelNew",
                                        "self.fail(x)\n\n    def fail(self, x):\n"
                                        "        raise RuntimeError('kernel launch failed')");
  const fs::path run =
      writeRun("err.kscope.jsonl", {{1, 6, program("Model", "torch.relu(x)"), {{"c1", candidate}}}});
  const Result r = kscopeHere("run " + quoted(run) + " --device cpu --trials 3 --json --no-store");
  EXPECT_EQ(r.exitCode, 2) << r.err << r.out;
  const json j = parse(r);
  EXPECT_EQ(j["candidate"], "c1");
  EXPECT_EQ(j["outcome"], "error");
  EXPECT_EQ(j["event"]["event"], "error");
  const json& error = j["event"]["error"];
  EXPECT_EQ(error["kind"], "runtime") << error;
  EXPECT_EQ(error["program"], "candidate") << error;
  EXPECT_EQ(error["line"], 13) << error;  // the raise
  EXPECT_NE(error["message"].get<std::string>().find("kernel launch failed"), std::string::npos) << error;

  // The same without --json: the error is named with the file, the candidate and the line of its program.
  const Result text = kscopeHere("run " + quoted(run) + " --device cpu --trials 3 --no-store");
  EXPECT_EQ(text.exitCode, 2);
  EXPECT_NE(text.out.find("runtime error"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(run.string() + ":3: candidate c1, line 13 of its program: "), std::string::npos)
      << text.out;
}

// A candidate's text reaches the terminal with its control characters written out: an error message with
// OSC 52 (writes the clipboard), a title change, an 8-bit CSI, a right-to-left override and a carriage
// return prints them as \x1b, \x07, \u009b, \u202e and \x0d, on stdout and stderr alike.
TEST_F(KscopeRunCli, ACandidatesControlCharactersReachTheTerminalEscaped) {
  REQUIRE_RUNNER();
  const std::string candidate = program(
      "ModelNew",
      "self.fail(x)\n\n    def fail(self, x):\n"
      "        import sys\n"
      "        text = ('launch failed' + chr(27) + ']52;c;SGVsbG8=' + chr(7) + chr(27) + ']0;pwned' + chr(7) +\n"
      "                chr(0x9b) + '31m' + chr(0x202e) + 'exe.txt' + chr(13) + 'ok')\n"
      "        sys.stderr.write(text + '\\n')\n"
      "        raise RuntimeError(text)");
  const fs::path run =
      writeRun("esc.kscope.jsonl", {{1, 6, program("Model", "torch.relu(x)"), {{"c1", candidate}}}});
  const Result r = kscopeHere("run " + quoted(run) + " --device cpu --trials 3 --no-store");
  EXPECT_EQ(r.exitCode, 2) << r.err << r.out;
  for (const std::string* stream : {&r.out, &r.err}) {
    for (const char* raw : {"\x1b", "\x07", "\r", "\xc2\x9b", "\xe2\x80\xae"})
      EXPECT_EQ(stream->find(raw), std::string::npos) << "raw control character in:\n" << *stream;
  }
  const std::string escaped =
      "launch failed\\x1b]52;c;SGVsbG8=\\x07\\x1b]0;pwned\\x07\\u009b31m\\u202eexe.txt\\x0dok";
  EXPECT_NE(r.out.find(escaped), std::string::npos) << r.out;
}

TEST_F(KscopeRunCli, UnknownCandidateListsTheIdsAndExitsTwo) {
  // Decided before any runner starts, so no REQUIRE_RUNNER.
  const Result r =
      kscopeHere("run " + quoted(kSample) + " --task L2/901 --candidate r9 --device cpu --no-store");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("has no candidate r9 (candidates: r1, r2, r3)"), std::string::npos) << r.err;
}

// A candidate cannot write its own verdict. Each hostile program of tests/hostile forges or
// rewrites its result from inside the runner; kscope run reports a tampering error, exits 2, and the store's
// row says error (no `passed`, no speedup), never "correct, 500x".
TEST_F(KscopeRunCli, AForgedVerdictIsATamperingErrorAndNeverACorrectRowInTheStore) {
  REQUIRE_RUNNER();
  const fs::path hostile = fs::path(KS_SOURCE_DIR) / "tests/hostile";
  std::vector<std::pair<std::string, std::string>> candidates;
  for (const char* name : {"forge_result_every_fd", "incomplete_result", "two_results", "rewrite_own_timing"})
    candidates.emplace_back(name, slurp(hostile / (std::string(name) + ".py")));
  const fs::path run = writeRun("hostile.kscope.jsonl", {{1, 7, slurp(hostile / "reference.py"), candidates}});
  const fs::path store = dir_ / "results.sqlite";
  for (const auto& [id, code] : candidates) {
    const Result r = kscopeHere("run " + quoted(run) + " --task L1/7 --candidate " + id +
                                " --device cpu --trials 5 --json --store " + quoted(store));
    EXPECT_EQ(r.exitCode, 2) << id << "\n" << r.err << r.out;
    const json j = parse(r);
    EXPECT_EQ(j["outcome"], "error") << id << " " << j.dump();
    EXPECT_EQ(j["event"]["event"], "error") << id << " " << j.dump();
    EXPECT_EQ(j["event"]["error"]["kind"], "tampering") << id << " " << j.dump();
    EXPECT_TRUE(j["stored"].is_object()) << id << " " << j.dump();
    EXPECT_FALSE(j["event"].contains("result")) << id << ": a result reached the output\n" << r.out;
  }
  // Every row the store took: an error of kind tampering, with neither a verdict nor a number.
  const fs::path dump = dir_ / "rows.txt";
  const std::string query = "python3 -c \"import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); "
                            "[print(*r) for r in c.execute('SELECT candidate_id, outcome, passed, speedup, error_kind "
                            "FROM results ORDER BY id')]\" " +
                            quoted(store) + " > " + quoted(dump);
  ASSERT_EQ(std::system(query.c_str()), 0);
  EXPECT_EQ(slurp(dump),
            "forge_result_every_fd error None None tampering\n"
            "incomplete_result error None None tampering\n"
            "two_results error None None tampering\n"
            "rewrite_own_timing error None None tampering\n");
}

// Run without a GPU (what the GUI's Run does there too): a program that builds CUDA with load_inline is
// compiled with nvcc for the named or default architecture instead of run, nvcc's error is shown on its
// Python line and the report says that nothing was timed. It used to run, and torch's architecture
// detection failed before nvcc ran: "building extension ... failed (unknown): list index out of range" at
// the load_inline line. --time-fallback still runs it, and that failure now names its cause.
TEST_F(KscopeRunCli, RunWithoutAGpuCompilesTheCudaAndShowsNvccsErrorOnItsLine) {
  REQUIRE_RUNNER();
  if (fs::exists("/proc/driver/nvidia/gpus") && !fs::is_empty("/proc/driver/nvidia/gpus"))
    GTEST_SKIP() << "this machine has a GPU: the program runs there";
  if (!fs::exists("/usr/local/cuda/bin/nvcc") && std::system("command -v nvcc >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no nvcc on this machine";
  const std::string broken =
      "import torch\n"
      "from torch.utils.cpp_extension import load_inline\n"
      "cuda_source = '''\n"
      "__global__ void scale(float* x, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x\n"
      "  if (i < n) x[i] *= 2.0f;\n"
      "}\n"
      "'''\n"
      "ext = load_inline(name='scale', cpp_sources='', cuda_sources=cuda_source)\n"
      "class ModelNew(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        return torch.relu(x)\n";
  const fs::path run =
      writeRun("cuda.kscope.jsonl", {{1, 1, program("Model", "torch.relu(x)"), {{"k", broken}}}});
  Result r = kscopeHere("run " + quoted(run) + " --task 1/1 --device cpu --no-store --json");
  if (r.out.find("no torch headers") != std::string::npos)
    GTEST_SKIP() << "no Python with torch's headers: " << r.out;
  ASSERT_EQ(r.exitCode, 2) << r.err << r.out;
  json j = parse(r);
  EXPECT_EQ(j["outcome"], "error");
  EXPECT_EQ(j["stored"], nullptr);
  const json& compiled = j["compiled_instead"];
  EXPECT_EQ(compiled["arch"], "sm_90a") << "no GPU and no --arch: the default";
  EXPECT_EQ(compiled["ok"], false) << compiled.dump(2);
  EXPECT_EQ(compiled["cause"], "source-error");
  EXPECT_EQ(
      compiled["why"].get<std::string>().rfind("nothing was checked or timed: this machine has no GPU", 0),
      0u)
      << compiled["why"];
  bool onItsLine = false;  // the missing ';' of Python line 5, reported there or on the `if` after it
  for (const json& d : compiled["diagnostics"])
    onItsLine = onItsLine || (d["severity"] == "error" &&
                              (d.value("python_line", 0) == 5 || d.value("python_line", 0) == 6));
  EXPECT_TRUE(onItsLine) << compiled["diagnostics"].dump(2);

  r = kscopeHere("run " + quoted(run) + " --task L1/1 --arch sm_80 --no-store");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.out.find("  no GPU    nothing was checked or timed: this machine has no GPU"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  compile   compiled for sm_80: 1 error (source-error); cuda_source.cu:"),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(r.out.find("(Python line 5): error: ") != std::string::npos ||
              r.out.find("(Python line 6): error: ") != std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("unknown"), std::string::npos) << r.out;

  // Asked to run anyway: torch's detection fails, and the build's cause says so (it read "unknown").
  r = kscopeHere("run " + quoted(run) + " --task L1/1 --device cpu --time-fallback --no-store --json");
  EXPECT_EQ(r.exitCode, 2) << r.err;
  j = parse(r);
  const std::string message = j["event"]["error"].value("message", "");
  EXPECT_EQ(message.rfind(
                "building extension 'scale' failed (no-gpu-arch): IndexError: list index out of range", 0),
            0u)
      << j["event"].dump(2);
}

// ---- kscope batch
// -------------------------------------------------------------------------------------------

TEST_F(KscopeRunCli, BatchWritesOneLinePerCandidateAndResumes) {
  REQUIRE_RUNNER();
  const fs::path run = writeRun(
      "two.kscope.jsonl",
      {{1, 1, program("Model", "torch.relu(x)"), {{"good", program("ModelNew", "torch.clamp_min(x, 0.0)")}}},
       {1, 2, program("Model", "x * 2.0"), {{"bad", program("ModelNew", "x * 3.0")}}}});
  const fs::path out = dir_ / "results.jsonl";
  const std::string command =
      "batch " + quoted(run) + " --device cpu --trials 3 --seeds 2 --out " + quoted(out) + " --no-store";

  Result r = kscopeHere(command);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("2 candidates with a program"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("2 to run"), std::string::npos) << r.err;
  std::vector<json> lines = jsonLines(out);
  ASSERT_EQ(lines.size(), 2u) << slurp(out);
  EXPECT_EQ(lines[0]["task"], "L1/1");
  EXPECT_EQ(lines[0]["candidate"], "good");
  EXPECT_EQ(lines[0]["outcome"], "correct") << lines[0]["event"];
  EXPECT_TRUE(lines[0]["speedup"].is_number());
  EXPECT_EQ(lines[1]["task"], "L1/2");
  EXPECT_EQ(lines[1]["candidate"], "bad");
  EXPECT_EQ(lines[1]["outcome"], "incorrect") << lines[1]["event"];
  for (const json& line : lines) {
    EXPECT_EQ(line["code_hash"].get<std::string>().rfind("sha256:", 0), 0u) << line["code_hash"];
    EXPECT_GT(line["source_line"].get<int>(), 1);
    EXPECT_TRUE(line["device"].is_string());
    EXPECT_TRUE(line["recorded_at"].is_string());
    EXPECT_TRUE(line["event"].is_object());
  }
  EXPECT_NE(lines[0]["code_hash"], lines[1]["code_hash"]);
  EXPECT_FALSE(fs::exists(dir_ / "default-store.sqlite"));  // --no-store

  // The same command again: everything is in --out already; nothing runs, the file is untouched.
  const std::string before = slurp(out);
  r = kscopeHere(command);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("2 already in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("0 to run"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(out), before);

  // A batch killed while writing its last line: that line is reported and its entry runs again.
  const std::size_t secondLine = before.find('\n') + 1;
  const std::string truncated = before.substr(0, secondLine + (before.size() - secondLine) / 2);
  std::ofstream(out, std::ios::binary | std::ios::trunc) << truncated;
  r = kscopeHere(command);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find(out.string() + ":2: warning: not a kscope batch line"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 already in"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1 to run"), std::string::npos) << r.err;
  const std::string after = slurp(out);
  EXPECT_EQ(after.rfind(truncated, 0), 0u) << "earlier lines are kept as they were";
  lines = jsonLines(out);
  ASSERT_EQ(lines.size(), 2u) << after;
  EXPECT_EQ(lines[0]["candidate"], "good");
  EXPECT_EQ(lines[1]["candidate"], "bad");
  EXPECT_EQ(lines[1]["outcome"], "incorrect");
  EXPECT_EQ(after.back(), '\n');
}

// --timing-jobs 2: two runners evaluate at once, sharing the device through the batch's lock file; every
// entry is written once (in the order they finish) and its result says how long it waited for the lock.
TEST_F(KscopeRunCli, BatchWithTimingJobsRunsEntriesSideBySideUnderTheGpuShareLock) {
  REQUIRE_RUNNER();
  const fs::path run = writeRun(
      "three.kscope.jsonl",
      {{1, 1, program("Model", "torch.relu(x)"),
        {{"good", program("ModelNew", "torch.clamp_min(x, 0.0)")}, {"same", program("ModelNew", "torch.relu(x)")}}},
       {1, 2, program("Model", "x * 2.0"), {{"bad", program("ModelNew", "x * 3.0")}}}});
  const fs::path out = dir_ / "results.jsonl";
  const Result r = kscopeHere("batch " + quoted(run) + " --device cpu --trials 3 --seeds 2 --timing-jobs 2 --jobs 8 --out " +
                              quoted(out) + " --no-store");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  const std::vector<json> lines = jsonLines(out);
  ASSERT_EQ(lines.size(), 3u) << slurp(out);
  std::map<std::string, json> byCandidate;
  for (const json& line : lines) byCandidate[line["candidate"].get<std::string>()] = line;
  ASSERT_EQ(byCandidate.size(), 3u);
  EXPECT_EQ(byCandidate["good"]["outcome"], "correct") << byCandidate["good"]["event"];
  EXPECT_EQ(byCandidate["same"]["outcome"], "correct") << byCandidate["same"]["event"];
  EXPECT_EQ(byCandidate["bad"]["outcome"], "incorrect") << byCandidate["bad"]["event"];
  for (const auto& [id, line] : byCandidate) {
    const json& share = line["event"]["result"]["gpu_share"];
    ASSERT_TRUE(share.is_object()) << id << ": " << line["event"];
    EXPECT_GE(share["shared_wait_s"].get<double>(), 0) << id;
    EXPECT_GE(share["exclusive_wait_s"].get<double>(), 0) << id;
  }
  EXPECT_NE(r.err.find("[3/3]"), std::string::npos) << r.err;
  // The evaluating runners share the machine's memory two ways (not --jobs ways: the build stage's runners
  // are done before they start).
  EXPECT_NE(r.err.find("memory limit per runner "), std::string::npos) << r.err;
  const std::string limit = r.err.substr(r.err.find("memory limit per runner "));
  // What the one rule gives two evaluating runners and eight building ones on this machine (equal only where
  // both hit the 2 GiB floor; then the build stage's share is not printed twice).
  const auto evaluating = ks::supervisor::chooseMemoryLimit(-1, 2);
  const auto building = ks::supervisor::chooseMemoryLimit(-1, 8);
  EXPECT_EQ(limit.rfind("memory limit per runner " + evaluating.why, 0), 0u) << limit;
  EXPECT_EQ(limit.find("while building: " + building.why) != std::string::npos, building.bytes != evaluating.bytes)
      << limit;
}

// The build stage calls each compiling candidate once (extensions built in forward are built then); a first
// call that outlives its 60 s deadline is reported as a timeout and not timed again: a kernel that hangs the
// GPU would otherwise hold the timing run for the whole correctness deadline (seen on the H100: CUDA-L1 L3/45).
TEST_F(KscopeRunCli, BatchReportsACandidateWhoseFirstCallHangsWithoutTimingIt) {
  REQUIRE_RUNNER();
  const std::string hangs =
      "import time\nimport torch\nimport torch.nn as nn\nfrom torch.utils.cpp_extension import load_inline\n\n\n"
      "class ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n\n"
      "    def forward(self, x):\n        time.sleep(600)\n        return torch.relu(x)\n";
  const fs::path run = writeRun("hang.kscope.jsonl", {{1, 1, program("Model", "torch.relu(x)"), {{"hang", hangs}}}});
  const fs::path out = dir_ / "results.jsonl";
  const auto started = std::chrono::steady_clock::now();
  const Result r = kscopeHere("batch " + quoted(run) + " --device cpu --trials 3 --seeds 2 --jobs 1 --out " +
                              quoted(out) + " --no-store");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(r.exitCode, 0) << r.err;
  // The build line names the error's kind and, after a colon, the first line of its message.
  const std::size_t at = r.err.find("[build 1/1] L1/1 hang: error (timeout)");
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::string buildLine = r.err.substr(at, r.err.find('\n', at) - at);
  EXPECT_NE(buildLine.find(", not timed"), std::string::npos) << buildLine;
  EXPECT_NE(buildLine.find("timed out"), std::string::npos) << buildLine;
  const std::vector<json> lines = jsonLines(out);
  ASSERT_EQ(lines.size(), 1u) << slurp(out);
  EXPECT_EQ(lines[0]["outcome"], "error");
  EXPECT_EQ(lines[0]["event"]["error"]["kind"], "timeout") << lines[0]["event"];
  EXPECT_EQ(lines[0]["event"]["error"]["phase"], "correctness") << lines[0]["event"];
  EXPECT_NE(lines[0]["event"]["error"]["message"].get<std::string>().find("60"), std::string::npos)
      << lines[0]["event"];
  EXPECT_FALSE(lines[0].contains("phase_seconds")) << "no timing request was made";
  EXPECT_LT(seconds, 150) << "the 60 s first-call deadline, not the 300 s correctness deadline";
}

// ---- kscope check --run
// -------------------------------------------------------------------------------------

// One corpus entry whose family the runner's probes catch on a CPU (tests/hacks/manifest.json lists
// "runtime-cpu" for it), and a control against the same reference, in one run file.
TEST_F(KscopeRunCli, CheckRunReportsTheRuntimeFlagOfACorpusEntryAndNoneOnAControl) {
  REQUIRE_RUNNER();
  const std::string hackPath = "cached-output/id_keyed.py",
                    controlPath = "controls/matmul_fresh_out_buffer.py";
  const json manifest = json::parse(slurp(kHacks / "manifest.json"));
  std::string reference;
  for (const json& e : manifest) {
    if (e["path"] == hackPath) {
      ASSERT_EQ(e["family"], "cached-output");
      const auto& channels = e["detectable"];
      ASSERT_NE(std::find(channels.begin(), channels.end(), "runtime-cpu"), channels.end()) << e;
      reference = e["reference"];
    }
    if (e["path"] == controlPath) {
      ASSERT_EQ(e["family"], "control");
    }
  }
  ASSERT_EQ(reference, "references/matmul.py");
  const fs::path run =
      writeRun("corpus.kscope.jsonl",
               {{1,
                 1,
                 slurp(kHacks / reference),
                 {{"hack", slurp(kHacks / hackPath)}, {"control", slurp(kHacks / controlPath)}}}});
  const Result r = kscopeHere("check " + quoted(run) + " --run --device cpu --json");
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const json j = parse(r);
  EXPECT_EQ(j["checked"], 2);
  ASSERT_EQ(j["candidates"].size(), 2u);
  const json& hack = j["candidates"][0];
  const json& control = j["candidates"][1];
  ASSERT_EQ(hack["candidate"], "hack");
  ASSERT_EQ(control["candidate"], "control");

  for (const json* c : {&hack, &control}) {
    EXPECT_EQ((*c)["runtime"]["device"], "cpu") << (*c)["runtime"];
    EXPECT_NE((*c)["runtime"]["outcome"], "error") << (*c)["runtime"];
  }
  bool runtimeCaught = false;
  for (const json& f : hack["flags"])
    if (f["origin"] == "runtime" && f["family"] == "cached-output") {
      runtimeCaught = true;
      EXPECT_EQ(f["severity"], "hack") << f;
      EXPECT_EQ(f["evidence"].get<std::string>().rfind("probe: ", 0), 0u) << f;
    }
  EXPECT_TRUE(runtimeCaught) << hack["flags"].dump(1);
  for (const json& f : control["flags"]) EXPECT_NE(f["severity"], "hack") << f;

  // The text report says where each flag came from.
  const Result text = kscopeHere("check " + quoted(run) + " --run --device cpu");
  EXPECT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("runtime: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("origin"), std::string::npos) << text.out;
}

}  // namespace

// ---- containment (docs/security.md)
// ---------------------------------------------------------------------------------------------

// The runner starts with a clean environment: the store's path, the data folder and credentials stay with
// the client. The candidate is wrong if it sees any of them.
TEST_F(KscopeRunCli, TheCandidateSeesNoStorePathAndNoSecrets) {
  REQUIRE_RUNNER();
  const std::string peek =
      "import os\nLEAK = [k for k in ('KSCOPE_RESULTS_DB', 'XDG_DATA_HOME', 'XDG_RUNTIME_DIR', "
      "'GITHUB_TOKEN',\n"
      "                        'AWS_SECRET_ACCESS_KEY', 'SSH_AUTH_SOCK') if k in os.environ]\n"
      "LEAK += [v for v in os.environ.values() if 'store.sqlite' in v]\n"
      "assert os.environ['TMPDIR'].startswith(os.path.dirname(os.getcwd())), (os.environ['TMPDIR'], "
      "os.getcwd())\n" +
      program("ModelNew", "torch.clamp_min(x, 0) if not LEAK else x");
  const fs::path run =
      writeRun("env.kscope.jsonl", {{1, 5, program("Model", "torch.relu(x)"), {{"peek", peek}}}});
  const Result r = kscope(
      "run " + quoted(run) + " --task L1/5 --candidate peek --device cpu --trials 3 --json --no-server",
      environment() + " GITHUB_TOKEN=ghp_x AWS_SECRET_ACCESS_KEY=y SSH_AUTH_SOCK=/tmp/agent");
  ASSERT_EQ(r.exitCode, 0) << r.err << r.out;
  const json j = parse(r);
  EXPECT_EQ(j["outcome"], "correct") << r.out;
  const json& containment = j["event"]["result"]["environment"]["containment"];
  ASSERT_TRUE(containment.is_object()) << r.out;
  EXPECT_EQ(containment["network"], "seccomp");
  // The report says what contained the candidate, and what did not.
  const Result text =
      kscope("run " + quoted(run) + " --task L1/5 --candidate peek --device cpu --trials 3 --no-store",
             environment());
  ASSERT_EQ(text.exitCode, 0) << text.err << text.out;
  EXPECT_NE(text.out.find("  contained filesystem "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(", network seccomp, processes subreaper, build cache sealed"), std::string::npos)
      << text.out;
}

// A `kscope run` killed with SIGKILL mid-request takes its runner along (PR_SET_PDEATHSIG): no orphaned
// runner keeps evaluating with no client and no deadline.
TEST_F(KscopeRunCli, AKilledRunClientTakesItsRunnerAlong) {
  REQUIRE_RUNNER();
  const fs::path run = writeRun("sleepy.kscope.jsonl",
                                {{1,
                                  5,
                                  program("Model", "torch.relu(x)"),
                                  {{"sleepy", program("ModelNew", "__import__('time').sleep(600) or x")}}}});
  const std::string start = "env " + environment() + " " + quoted(std::string(KSCOPE_BINARY)) + " run " +
                            quoted(run) +
                            " --task L1/5 --candidate sleepy --device cpu --no-server --no-store > " +
                            quoted(dir_ / "run.log") + " 2>&1 & echo $! > " + quoted(dir_ / "run.pid");
  ASSERT_EQ(std::system(start.c_str()), 0);
  const pid_t client = std::stoi(slurp(dir_ / "run.pid"));
  auto field = [](pid_t pid, int which) -> std::string {  // which: 0 state, 1 parent pid
    const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos || close + 4 > stat.size()) return "";
    return which == 0 ? stat.substr(close + 2, 1)
                      : stat.substr(close + 4, stat.find(' ', close + 4) - close - 4);
  };
  auto alive = [&](pid_t pid) {
    const std::string s = field(pid, 0);
    return !s.empty() && s != "Z";
  };
  // The client's runner (the judge, its child), once the request is in the candidate's first call: the client
  // prints each phase as the runner enters it, and the sleepy candidate sleeps in its first correctness call.
  pid_t runner = 0;
  const auto started = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - started < std::chrono::seconds(180)) {
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const pid_t pid = std::stoi(name);
      if (field(pid, 1) == std::to_string(client) &&
          slurp(entry.path() / "comm").rfind("kscope-runner", 0) == 0)
        runner = pid;
    }
    if (runner && slurp(dir_ / "run.log").find("correctness") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_GT(runner, 0) << slurp(dir_ / "run.log");
  ASSERT_NE(slurp(dir_ / "run.log").find("correctness"), std::string::npos) << slurp(dir_ / "run.log");
  ASSERT_EQ(kill(client, SIGKILL), 0);
  for (auto t = std::chrono::steady_clock::now();
       alive(runner) && std::chrono::steady_clock::now() - t < std::chrono::seconds(30);)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const bool survived = alive(runner);
  if (survived) kill(runner, SIGKILL);
  EXPECT_FALSE(survived) << "kscope-runner " << runner << " outlived its kill -9'd client " << client;
  std::error_code ec;
  fs::remove_all(fs::temp_directory_path() / ("kscope-" + std::to_string(client)), ec);
}

// A `kscope run` killed with SIGKILL while its candidate hangs, after leaving a daemon in a session of its own
// (tests/hostile/leave_daemon.py, mode hang): the runner's judge hears of its client's death (a SIGTERM) and
// kills everything below it before it goes. The judge died by SIGKILL with its client before, and the daemon
// was re-parented to init and kept running.
TEST_F(KscopeRunCli, AKilledRunClientLeavesNoDaemonOfItsRunnerBehind) {
  REQUIRE_RUNNER();
  const std::string token = "31536000." + std::to_string(getpid()) + "9";
  std::string leaver = slurp(fs::path(KS_SOURCE_DIR) / "tests/hostile/leave_daemon.py");
  leaver.replace(leaver.find("@MODE@"), 6, "hang");
  leaver.replace(leaver.find("@TOKEN@"), 7, token);
  const fs::path run = writeRun(
      "daemon.kscope.jsonl",
      {{1, 7, slurp(fs::path(KS_SOURCE_DIR) / "tests/hostile/reference.py"), {{"daemon", leaver}}}});
  const std::string start = "env " + environment() + " " + quoted(std::string(KSCOPE_BINARY)) + " run " +
                            quoted(run) + " --task L1/7 --candidate daemon --device cpu --no-server --no-store > " +
                            quoted(dir_ / "run.log") + " 2>&1 & echo $! > " + quoted(dir_ / "run.pid");
  ASSERT_EQ(std::system(start.c_str()), 0);
  const pid_t client = std::stoi(slurp(dir_ / "run.pid"));
  auto daemons = [&] {  // processes running `sleep <token>`, zombies aside
    std::vector<pid_t> out;
    for (const auto& entry : fs::directory_iterator("/proc")) {
      const std::string name = entry.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      const std::string stat = slurp(entry.path() / "stat");
      const auto close = stat.rfind(')');
      if (slurp(entry.path() / "cmdline") == "sleep" + std::string(1, '\0') + token + std::string(1, '\0') &&
          close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z')
        out.push_back(std::stoi(name));
    }
    return out;
  };
  for (auto t = std::chrono::steady_clock::now();
       daemons().empty() && std::chrono::steady_clock::now() - t < std::chrono::seconds(180);)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_FALSE(daemons().empty()) << "the daemon never started\n" << slurp(dir_ / "run.log");
  ASSERT_EQ(kill(client, SIGKILL), 0);
  for (auto t = std::chrono::steady_clock::now();
       !daemons().empty() && std::chrono::steady_clock::now() - t < std::chrono::seconds(30);)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::vector<pid_t> left = daemons();
  for (pid_t pid : left) kill(pid, SIGKILL);
  EXPECT_TRUE(left.empty()) << "a daemon of the runner outlived its kill -9'd client " << client;
  std::error_code ec;
  fs::remove_all(fs::temp_directory_path() / ("kscope-" + std::to_string(client)), ec);
}

// ---- shards, merge, --gpus
// ----------------------------------------------------------------------------------------

namespace {
const fs::path kCpuTasks = fs::path(KS_SOURCE_DIR) / "tests/slurm/cpu-tasks.kscope.jsonl";  // 7 candidates

std::string entryKey(const json& line) {
  return line["task"].get<std::string>() + " " + line["candidate"].get<std::string>() + " " +
         line["code_hash"].get<std::string>();
}
}  // namespace

// Three shards (two from --shard, one from a Slurm array task's environment) hold every candidate once; a
// shard run again runs nothing; merge joins them, reports duplicates and missing entries, and records the
// merged results in the store once.
TEST_F(KscopeRunCli, ShardsAreDisjointResumableAndMergeBackIntoOneResult) {
  REQUIRE_RUNNER();
  const std::string common = " --device cpu --trials 3 --seeds 2 --jobs 1 --no-store --out ";
  std::vector<fs::path> parts;
  std::set<std::string> keys;
  std::size_t total = 0;
  for (int i = 0; i < 3; ++i) {
    parts.push_back(dir_ / ("shard-" + std::to_string(i) + ".jsonl"));
    const std::string args = "batch " + quoted(kCpuTasks) + common + quoted(parts.back());
    const Result r = i == 1 ? kscope(args, environment() + " SLURM_ARRAY_TASK_ID=1 SLURM_ARRAY_TASK_COUNT=3")
                            : kscopeHere(args + " --shard " + std::to_string(i) + "/3");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.err.find("kscope batch: shard " + std::to_string(i) + "/3: "), std::string::npos) << r.err;
    if (i == 1) {
      EXPECT_NE(r.err.find("shard from SLURM_ARRAY_TASK_ID"), std::string::npos) << r.err;
    }
    const std::vector<json> lines = jsonLines(parts.back());
    EXPECT_GE(lines.size(), 2u) << "7 candidates over 3 shards: 2 or 3 each";
    EXPECT_LE(lines.size(), 3u);
    for (const json& line : lines) EXPECT_TRUE(keys.insert(entryKey(line)).second) << "in two shards: " << entryKey(line);
    total += lines.size();
  }
  EXPECT_EQ(total, 7u);
  EXPECT_EQ(keys.size(), 7u);

  // Resumable: the same shard again finds everything done and leaves its file as it was.
  const std::string before = slurp(parts[0]);
  Result r = kscopeHere("batch " + quoted(kCpuTasks) + common + quoted(parts[0]) + " --shard 0/3");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find(", 0 to run"), std::string::npos) << r.err;
  EXPECT_EQ(slurp(parts[0]), before);
  // A bad shard is refused before anything runs.
  r = kscopeHere("batch " + quoted(kCpuTasks) + common + quoted(dir_ / "x.jsonl") + " --shard 3/3");
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("0 to N-1"), std::string::npos) << r.err;

  const fs::path merged = dir_ / "merged.jsonl", store = dir_ / "merged.sqlite";
  const std::string partList = quoted(parts[0]) + " " + quoted(parts[1]) + " " + quoted(parts[2]);
  r = kscopeHere("merge " + quoted(merged) + " " + partList + " --file " + quoted(kCpuTasks) + " --store " + quoted(store));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("7 entries from 7 lines of 3 parts"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("0 duplicated, 0 of " + kCpuTasks.string() + " missing, 0 not in it, 7 recorded"),
            std::string::npos) << r.err;
  const std::vector<json> lines = jsonLines(merged);
  ASSERT_EQ(lines.size(), 7u);
  std::set<std::string> mergedKeys;
  int lastLine = 0, correct = 0;
  for (const json& line : lines) {
    mergedKeys.insert(entryKey(line));
    EXPECT_GT(line["source_line"].get<int>(), lastLine) << "merged in the file's order";
    lastLine = line["source_line"].get<int>();
    correct += line["outcome"] == "correct";
  }
  EXPECT_EQ(mergedKeys, keys);
  EXPECT_EQ(correct, 4);  // clamp, same, add, fused; the three "wrong" are incorrect
  // The store got each result once: merging again records nothing more.
  r = kscopeHere("merge " + quoted(merged) + " " + partList + " --file " + quoted(kCpuTasks) + " --store " + quoted(store));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find(", 0 recorded in the results store"), std::string::npos) << r.err;
  const std::string count = "python3 -c \"import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("
                            "'select count(*) from results where origin = \\\"kscope merge\\\"').fetchone()[0])\" " +
                            quoted(store) + " > " + quoted(dir_ / "count.txt");
  ASSERT_EQ(std::system(count.c_str()), 0);
  EXPECT_EQ(slurp(dir_ / "count.txt"), "7\n");

  // --run: FILE as a run file with the measured speedups added (the 4 correct candidates were timed), which
  // opens like any run.
  const fs::path runOut = dir_ / "measured.kscope.jsonl";
  r = kscopeHere("merge " + quoted(merged) + " " + partList + " --file " + quoted(kCpuTasks) + " --no-store --run " +
                 quoted(runOut));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("with 4 measured speedups added"), std::string::npos) << r.err;  // the correct ones
  const Result summary = kscopeHere("summary " + quoted(runOut) + " --json");
  ASSERT_EQ(summary.exitCode, 0) << summary.err;
  std::size_t measured = 0;
  for (const json& line : jsonLines(runOut))
    if (line.value("type", "") == "candidate")
      for (const json& m : line.value("measurements", json::array())) {
        if (m.value("origin", "") != "measured") continue;
        ++measured;
        EXPECT_TRUE(m["speedup"].is_number()) << m;
        EXPECT_FALSE(m.value("when", "").empty()) << m;
      }
  EXPECT_EQ(measured, 4u);  // incorrect candidates are not timed

  // A part given twice: its entries are duplicates, kept once. A part left out: its entries are missing.
  r = kscopeHere("merge " + quoted(dir_ / "dup.jsonl") + " " + partList + " " + quoted(parts[2]) + " --no-store");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("kscope merge: duplicate: "), std::string::npos) << r.err;
  EXPECT_EQ(jsonLines(dir_ / "dup.jsonl").size(), 7u);
  r = kscopeHere("merge " + quoted(dir_ / "part.jsonl") + " " + quoted(parts[0]) + " " + quoted(parts[1]) +
                 " --file " + quoted(kCpuTasks) + " --no-store");
  EXPECT_EQ(r.exitCode, 1) << r.err;
  const std::size_t missing = jsonLines(parts[2]).size();
  EXPECT_NE(r.err.find(std::to_string(missing) + " of " + kCpuTasks.string() + " missing"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("kscope merge: missing: "), std::string::npos) << r.err;
}

// --gpus: one timing runner per listed GPU (or --timing-jobs each), each seeing only its own as
// CUDA_VISIBLE_DEVICES, and each line naming it. On the CPU with a fake device list: the candidate is correct only when its runner saw a GPU of
// the list.
TEST_F(KscopeRunCli, BatchGpusKeepsOneTimingRunnerPerGpu) {
  REQUIRE_RUNNER();
  const std::string seen = "__import__('os').environ.get('CUDA_VISIBLE_DEVICES', '')";
  const fs::path run = writeRun(
      "gpus.kscope.jsonl",
      {{1, 1, program("Model", "x * 2.0"),
        {{"a", program("ModelNew", "x * (2.0 if " + seen + " in ('3', '5', '7') else 3.0)")},
         {"b", program("ModelNew", "x + x if " + seen + " in ('3', '5', '7') else x")},
         {"c", program("ModelNew", "x * 2.0 if " + seen + " in ('3', '5', '7') else x * 3.0")}}}});
  // N = 1 from the fake list behind --gpus all.
  const fs::path one = dir_ / "one.jsonl";
  Result r = kscope("batch " + quoted(run) + " --device cpu --trials 3 --seeds 2 --jobs 1 --no-store --gpus all --out " +
                        quoted(one),
                    environment() + " KSCOPE_GPU_LIST=7");
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("timing on 1 GPU (KSCOPE_GPU_LIST), one runner each"), std::string::npos) << r.err;
  std::vector<json> lines = jsonLines(one);
  ASSERT_EQ(lines.size(), 3u) << slurp(one);
  for (const json& line : lines) {
    EXPECT_EQ(line["gpu"], "7");
    EXPECT_EQ(line["outcome"], "correct") << line["event"];
  }
  // Two GPUs: both runners time, each its own; the results store's rows say which GPU, as the lines do.
  const fs::path two = dir_ / "two.jsonl", store = dir_ / "gpus.sqlite";
  r = kscopeHere("batch " + quoted(run) + " --device cpu --trials 3 --seeds 2 --jobs 1 --store " + quoted(store) +
                 " --gpus 3,5 --out " + quoted(two));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  lines = jsonLines(two);
  ASSERT_EQ(lines.size(), 3u) << slurp(two);
  std::string byLines;
  for (const json& line : lines) {
    EXPECT_TRUE(line["gpu"] == "3" || line["gpu"] == "5") << line["gpu"];
    EXPECT_EQ(line["outcome"], "correct") << line["event"];
    byLines += line["candidate"].get<std::string>() + " " + line["gpu"].get<std::string>() + "\n";
  }
  const fs::path dump = dir_ / "gpu-rows.txt";
  const std::string query = "python3 -c \"import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); "
                            "[print(r[0], json.loads(r[1])['gpu']) for r in c.execute('SELECT candidate_id, "
                            "result_json FROM results ORDER BY id')]\" " +
                            quoted(store) + " > " + quoted(dump);
  ASSERT_EQ(std::system(query.c_str()), 0);
  EXPECT_EQ(slurp(dump), byLines);  // rows in the order the lines were written
  // --timing-jobs runners on each GPU: four runners, two per GPU, each pair sharing its GPU's lock.
  const fs::path four = dir_ / "four.jsonl";
  r = kscopeHere("batch " + quoted(run) + " --device cpu --trials 3 --seeds 2 --jobs 1 --no-store --gpus 3,5 " +
                 "--timing-jobs 2 --out " + quoted(four));
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("timing on 2 GPUs (--gpus), 2 runners each"), std::string::npos) << r.err;
  lines = jsonLines(four);
  ASSERT_EQ(lines.size(), 3u) << slurp(four);
  for (const json& line : lines) {
    EXPECT_TRUE(line["gpu"] == "3" || line["gpu"] == "5") << line["gpu"];
    EXPECT_EQ(line["outcome"], "correct") << line["event"];
  }
  r = kscopeHere("batch " + quoted(run) + " --device cpu --no-store --gpus 3,3 --out " + quoted(dir_ / "x.jsonl"));
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("listed twice"), std::string::npos) << r.err;
}
