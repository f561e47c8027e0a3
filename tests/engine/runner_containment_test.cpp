// Hostile programs run by the built kscope-runner (docs/security.md): each tries what a candidate should not
// be able to do, and its forward returns a wrong answer if any of it worked, so a correct result means every
// attempt failed inside the runner; the test then checks from outside that no file appeared and no process is
// left. An honest candidate in the same runner stays correct.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/protocol/json_codec.h"
#include "core/sandbox/landlock_rules.h"
#include "tests/engine/runner_process.h"
#include "tests/engine/task_programs.h"
#include "ks_test_paths.h"
#include "tests/read_file.h"

using namespace ks;
using namespace ks::protocol;
using ks::testing::RunnerProcess;
namespace fs = std::filesystem;

namespace {

constexpr double kContainmentTimeoutS = 300;

using ks::test::readFile;

void replaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (std::size_t at; (at = text.find(from)) != std::string::npos;) text.replace(at, from.size(), to);
}

// Processes whose command line holds `token`.
int processesWith(const std::string& token) {
  int n = 0;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::string cmdline = readFile(entry.path() / "cmdline");
    if (cmdline.find(token) != std::string::npos) {
      const std::string stat = readFile(entry.path() / "stat");
      const auto close = stat.rfind(')');
      if (close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z') ++n;
    }
  }
  return n;
}

// The hostile program's prelude: attempts, each of which must fail (FAILED lists those that did not).
const std::string kHostile = R"(import os
import socket
import subprocess
import sys
import time

FAILED = []


def must_fail(what, action):
    try:
        action()
    except OSError:
        return
    FAILED.append(what)


def write(path):
    with open(path, "w") as f:
        f.write("escaped")


must_fail("write in $HOME", lambda: write(os.path.expanduser("~/escaped-home.txt")))
must_fail("write in the client's folder", lambda: write(f"/proc/{os.getppid()}/cwd/escaped-cwd.txt"))
must_fail("write at an absolute path", lambda: write("@ABSOLUTE@"))
must_fail("delete next to the scratch root", lambda: os.remove("@VICTIM@"))
must_fail("rename next to the scratch root", lambda: os.rename("@VICTIM@", "stolen.txt"))
must_fail("inet socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
must_fail("inet6 socket", lambda: socket.socket(socket.AF_INET6, socket.SOCK_DGRAM))
must_fail("connect out", lambda: socket.create_connection(("127.0.0.1", 9), timeout=2))
write("inside-scratch.txt")  # the scratch folder (the working folder) stays writable
os.remove("inside-scratch.txt")
# Leftovers: a child in a new session, and a double-forked daemon in a session of its own.
leftover = subprocess.Popen(["sleep", "@TOKEN@"], start_new_session=True)
subprocess.run(["sh", "-c", "setsid sleep @TOKEN@ >/dev/null 2>&1 < /dev/null &"], check=True)


# The leftovers once they run `sleep` itself. A process on its way there (the shell's child before its
# exec, setsid before its own) also holds the token in its command line, and one in the middle of an exec
# reads as no command line at all: counting those made the count go 2, then 1, about once in 70 runs on
# 2 busy cores.
def running():
    n = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                n += f.read().split(b"\0")[:2] == [b"sleep", b"@TOKEN@"]
        except OSError:
            pass
    return n


deadline = time.time() + 60
started = running()
while started < 2 and time.time() < deadline:
    time.sleep(0.05)
    started = running()
if started < 2:
    FAILED.append("the leftovers did not start")
if FAILED:  # the runner's stderr, which the test prints when the result is wrong
    print("hostile prelude: these attempts did not fail:", FAILED, file=sys.stderr, flush=True)
)";

class RunnerContainmentTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kscope-contain-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    for (const char* sub : {"home", "client", "outside", "scratch", "cache"})
      fs::create_directories(dir_ / sub);
    std::ofstream(dir_ / "victim.txt") << "keep";
  }
  void TearDown() override {
    runner_.reset();
    if (!previousCwd_.empty()) fs::current_path(previousCwd_);
    fs::remove_all(dir_);
  }

  // A runner as a client would start it: HOME and the working folder are the test's, the writable folders
  // its scratch and cache only.
  void startRunner() {
    previousCwd_ = fs::current_path();  // the client's folder stays the test's until TearDown
    const char* home = std::getenv("HOME");
    const std::string oldHome = home ? home : "";
    setenv("HOME", (dir_ / "home").c_str(), 1);
    setenv("KSCOPE_WRITABLE", ((dir_ / "scratch").string() + ":" + (dir_ / "cache").string()).c_str(), 1);
    fs::current_path(dir_ / "client");
    auto started =
        RunnerProcess::start(fs::path(KS_BINARY_DIR) / "bin" / "kscope-runner", dir_ / "stderr.txt");
    setenv("HOME", oldHome.c_str(), 1);
    unsetenv("KSCOPE_WRITABLE");
    if (auto* why = std::get_if<std::string>(&started)) FAIL() << *why;
    runner_.emplace(std::move(std::get<RunnerProcess>(started)));
    auto ready = runner_->readLine(kContainmentTimeoutS);
    ASSERT_TRUE(ready) << "no ready line; stderr:\n" << readFile(dir_ / "stderr.txt");
  }

  Request evaluate(const std::string& id, const std::string& candidate) {
    Request r = engine::testing::evaluateRequest(id, candidate);
    r.options.scratch = (dir_ / "scratch" / id).string();
    r.options.cache = (dir_ / "cache").string();
    return r;
  }

  std::vector<Event> roundTrip(const Request& request) {
    EXPECT_TRUE(runner_->send(encodeRequest(request)));
    auto events = runner_->eventsUntilDone(request.id, kContainmentTimeoutS);
    if (auto* why = std::get_if<std::string>(&events)) {
      ADD_FAILURE() << *why << "\nstderr:\n" << readFile(dir_ / "stderr.txt");
      return {};
    }
    return std::get<std::vector<Event>>(events);
  }

  // The evaluate result of `request`, which must be correct.
  std::optional<EvaluateResult> correct(const Request& request) {
    auto events = roundTrip(request);
    if (events.empty()) return std::nullopt;
    const auto* result = std::get_if<ResultEvent>(&events.back());
    if (!result) {
      ADD_FAILURE() << encodeEvent(events.back()) << "\nstderr:\n" << readFile(dir_ / "stderr.txt");
      return std::nullopt;
    }
    Decoded<EvaluateResult> r = decodeEvaluateResult(result->result);
    if (!r.value) {
      ADD_FAILURE() << r.error;
      return std::nullopt;
    }
    EXPECT_TRUE(r.value->correctness.passed)
        << request.id << ": " << result->result.dump().substr(0, 2000) << "\nstderr:\n"
        << readFile(dir_ / "stderr.txt");
    return r.value;
  }

  fs::path dir_, previousCwd_;
  std::optional<RunnerProcess> runner_;
};

}  // namespace

TEST_F(RunnerContainmentTest, HelloSaysWhatContainsTheCandidate) {
  ASSERT_NO_FATAL_FAILURE(startRunner());
  Request request;
  request.id = "h";
  request.op = Op::Hello;
  auto hello = roundTrip(request);
  ASSERT_FALSE(hello.empty());
  Decoded<Environment> env = decodeHelloPayload(std::get<ResultEvent>(hello.back()).result);
  ASSERT_TRUE(env.value) << env.error;
  ASSERT_TRUE(env.value->containment);
  const Containment& c = *env.value->containment;
  EXPECT_EQ(c.network, "seccomp");
  EXPECT_EQ(c.processes, "subreaper");
  EXPECT_EQ(c.buildCache, "sealed");
  if (sandbox::landlockAbi() > 0) {
    EXPECT_EQ(c.filesystem, "landlock");
    EXPECT_EQ(c.landlockAbi, sandbox::landlockAbi());
    EXPECT_NE(std::find(c.writable.begin(), c.writable.end(), (dir_ / "scratch").string()), c.writable.end());
  } else {
    EXPECT_EQ(c.filesystem, "none");
    EXPECT_FALSE(c.notes.empty()) << "an absent Landlock must be said";
  }
}

TEST_F(RunnerContainmentTest, AHostileProgramWritesNothingOutsideOpensNoSocketAndLeavesNoProcess) {
  if (sandbox::landlockAbi() == 0) GTEST_SKIP() << "no Landlock on this kernel: writes are not contained";
  ASSERT_NO_FATAL_FAILURE(startRunner());
  const std::string token = "31536000." + std::to_string(getpid()) + "7";
  std::string prelude = kHostile;
  replaceAll(prelude, "@ABSOLUTE@", (dir_ / "outside" / "escaped-absolute.txt").string());
  replaceAll(prelude, "@VICTIM@", (dir_ / "victim.txt").string());
  replaceAll(prelude, "@TOKEN@", token);
  const std::string hostile = engine::testing::candidateWith(
      "out = torch.relu(self.linear(x))\n"
      "        return out if not FAILED else out + 1  # wrong when anything escaped\n",
      prelude);
  auto result = correct(evaluate("hostile", hostile));
  ASSERT_TRUE(result);
  // The runner ends leftovers after it answers, before it reads the next request: a hello is the barrier.
  Request hello;
  hello.id = "barrier";
  hello.op = Op::Hello;
  ASSERT_FALSE(roundTrip(hello).empty());
  // Checked from outside: nothing written, nothing removed, nothing left running.
  EXPECT_FALSE(fs::exists(dir_ / "home" / "escaped-home.txt"));
  EXPECT_FALSE(fs::exists(dir_ / "client" / "escaped-cwd.txt"));
  EXPECT_FALSE(fs::exists(dir_ / "outside" / "escaped-absolute.txt"));
  EXPECT_EQ(readFile(dir_ / "victim.txt"), "keep");
  EXPECT_EQ(processesWith(token), 0) << "a process the request started outlived it";
  EXPECT_NE(readFile(dir_ / "stderr.txt").find("process(es) request hostile left running"), std::string::npos)
      << readFile(dir_ / "stderr.txt");

  // The runner serves on, and an honest candidate is still correct.
  auto honest =
      correct(evaluate("honest", engine::testing::candidateWith("return self.linear(x).clamp_min(0)")));
  ASSERT_TRUE(honest);
  EXPECT_TRUE(honest->timing);
}

// A candidate replaces a library the cache published for another program with its own (same module name,
// another behaviour), atomically as a careful attacker would. The next load of that program rejects it
// (its seal does not match), builds it again and is correct.
TEST_F(RunnerContainmentTest, ALibraryPlantedInTheBuildCacheIsRejectedAndRebuilt) {
  ASSERT_NO_FATAL_FAILURE(startRunner());
  auto extension = [](const std::string& body) {
    return "from torch.utils.cpp_extension import load_inline\n"
           "ext = load_inline(name='kscope_sealed', cpp_sources='''\n"
           "#include <torch/extension.h>\n"
           "torch::Tensor same(torch::Tensor x) { " +
           body +
           " }\n"
           "''', functions=['same'])\n";
  };
  const std::string honest = engine::testing::candidateWith("return ext.same(torch.relu(self.linear(x)))",
                                                            extension("return x.clone();"));
  auto first = correct(evaluate("honest1", honest));
  ASSERT_TRUE(first);
  ASSERT_EQ(first->build.extensions.size(), 1u);
  EXPECT_TRUE(first->build.extensions[0].ok);
  const std::string honestDir = first->build.extensions[0].directory;

  const std::string plant = extension("return x * 0;") + R"(
import glob
import os
import shutil

mine = max(glob.glob(os.path.join(os.environ['TORCH_EXTENSIONS_DIR'], 'kscope_sealed-*')), key=os.path.getmtime)
for other in glob.glob(os.path.join(os.path.dirname(mine), 'kscope_sealed-*')):
    if other != mine:
        shutil.copyfile(os.path.join(mine, 'kscope_sealed.so'), os.path.join(other, 'planted.tmp'))
        os.replace(os.path.join(other, 'planted.tmp'), os.path.join(other, 'kscope_sealed.so'))
)";
  const std::string planter = engine::testing::candidateWith("return torch.relu(self.linear(x))", plant);
  auto planted = correct(evaluate("planter", planter));
  ASSERT_TRUE(planted);
  ASSERT_EQ(planted->build.extensions.size(), 1u);
  EXPECT_NE(planted->build.extensions[0].directory, honestDir);
  // The plant is in place: the honest entry's library is now the planter's.
  std::ifstream a(fs::path(honestDir) / "kscope_sealed.so", std::ios::binary),
      b(fs::path(planted->build.extensions[0].directory) / "kscope_sealed.so", std::ios::binary);
  ASSERT_EQ(std::string(std::istreambuf_iterator<char>(a), {}),
            std::string(std::istreambuf_iterator<char>(b), {}))
      << "the planter did not replace the honest library";

  auto again = correct(evaluate("honest2", honest));
  ASSERT_TRUE(again);
  ASSERT_EQ(again->build.extensions.size(), 1u);
  EXPECT_FALSE(again->build.extensions[0].cacheHit) << "the planted library was loaded from the cache";
  EXPECT_NE(readFile(dir_ / "stderr.txt").find("kscope_sealed.so changed after it was published"),
            std::string::npos)
      << readFile(dir_ / "stderr.txt");
  auto third = correct(evaluate("honest3", honest));
  ASSERT_TRUE(third);
  EXPECT_TRUE(third->build.extensions[0].cacheHit) << "the rebuilt library is sealed and found again";
}
