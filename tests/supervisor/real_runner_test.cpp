// RunnerSupervisor against the built kscope-runner (its judge and executor, docs/runner-protocol.md, "Threat
// model"): a hostile program's forged verdict ends as tampering and the next request gets a fresh runner;
// the memory limit is measured on the executor, the process that runs programs. Skipped in a build without
// the runner.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "core/protocol/json_codec.h"
#include "core/supervisor/runner_supervisor.h"
#include "tests/supervisor/fake_runner_support.h"
#include "ks_test_paths.h"

namespace ks::supervisor {
namespace {

#ifdef KSCOPE_RUNNER_BINARY
const std::filesystem::path kRunner = KSCOPE_RUNNER_BINARY;
#else
const std::filesystem::path kRunner;
#endif

#define REQUIRE_RUNNER() \
  if (kRunner.empty()) GTEST_SKIP() << "this build has no kscope-runner"

std::string hostileFile(const std::string& name) {
  std::ifstream in(std::filesystem::path(KS_SOURCE_DIR) / "tests" / "hostile" / name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The reference as a candidate (an honest one); `forward` gets `before` ahead of its return line.
std::string candidate(const std::string& before = "") {
  std::string code = hostileFile("reference.py");
  code.replace(code.find("class Model("), 12, "class ModelNew(");
  code.replace(code.find("        return torch.relu"), 8, before + "        ");
  return code;
}

SupervisorOptions realRunner() {
  SupervisorOptions o = fake::fakeRunner();
  o.runner = kRunner;
  o.startDeadlineSeconds = 120;
  o.answerDeadlineSeconds = 120;
  return o;
}

// The processes running `sleep <token>` (zombies excluded: an orphan's zombie waits for init to reap it).
std::vector<pid_t> sleepersWith(const std::string& token) {
  std::vector<pid_t> out;
  const std::string wanted = std::string("sleep") + '\0' + token + '\0';
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream cmd(entry.path() / "cmdline", std::ios::binary), stat(entry.path() / "stat");
    const std::string cmdline((std::istreambuf_iterator<char>(cmd)), {});
    std::string line;
    std::getline(stat, line);
    const auto close = line.rfind(')');
    if (cmdline == wanted && close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z')
      out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

// Whether every `sleep <token>` is gone within `seconds` (a SIGKILLed process leaves /proc at once; the
// grace is for a loaded machine). Kills those left either way, so a failing test leaves nothing behind.
bool sleepersGone(const std::string& token, double seconds = 10) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!sleepersWith(token).empty() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::vector<pid_t> left = sleepersWith(token);
  for (pid_t pid : left) kill(pid, SIGKILL);
  return left.empty();
}

// tests/hostile/leave_daemon.py in `mode`, its daemon `sleep <token>`.
std::string daemonLeaver(const std::string& mode, const std::string& token) {
  std::string code = hostileFile("leave_daemon.py");
  code.replace(code.find("@MODE@"), 6, mode);
  code.replace(code.find("@TOKEN@"), 7, token);
  return code;
}

std::string uniqueToken(int which) { return "31536000." + std::to_string(getpid()) + std::to_string(which); }

protocol::Request evaluate(const std::string& id, const std::string& candidate) {
  protocol::Request r;
  r.id = id;
  r.op = protocol::Op::Evaluate;
  r.task = protocol::TaskSpec{.key = "hostile/" + id, .reference = hostileFile("reference.py")};
  r.candidate = protocol::CandidateSpec{.id = id, .code = candidate};
  r.options.device = "cpu";
  r.options.seeds = 2;
  r.options.trials = 5;
  r.options.warmup = 1;
  return r;
}

TEST(RealRunner, AForgedVerdictIsTamperingAndTheNextRequestGetsAFreshRunner) {
  REQUIRE_RUNNER();
  RunnerSupervisor s(realRunner());
  std::vector<std::string> ends;
  const RequestOutcome forged = s.request(evaluate("forge", hostileFile("forge_result_every_fd.py")),
                                          [&](const protocol::Event& e) {
                                            if (std::holds_alternative<protocol::ResultEvent>(e)) ends.push_back("result");
                                            if (std::holds_alternative<protocol::ErrorEvent>(e)) ends.push_back("error");
                                          });
  ASSERT_NE(forged.error(), nullptr) << protocol::encodeEvent(std::get<protocol::ResultEvent>(forged.end));
  EXPECT_EQ(forged.error()->error.kind, protocol::ErrorKind::Tampering) << forged.error()->error.message;
  EXPECT_EQ(ends, std::vector<std::string>{"error"});
  const RequestOutcome honest = s.request(evaluate("honest", candidate()));
  ASSERT_TRUE(honest.isResult()) << honest.error()->error.message << "\n" << honest.error()->error.stderrTail;
  EXPECT_TRUE(honest.result()->ok);
}

// A program cannot lengthen its own deadline (tests/hostile/forge_phase_deadline.py): its first call hangs
// for 40 s while it writes a `correctness` phase event with a deadline of 1 000 000 s to the judge's socket
// every 2 s. The client's own limit on correctness (10 s here) ends it as a timeout; a client that took the
// announced deadline waited out the hang and reported the candidate correct.
TEST(RealRunner, AForgedPhaseDeadlineNeitherLengthensNorRestartsThePhase) {
  REQUIRE_RUNNER();
  SupervisorOptions o = realRunner();
  o.phaseLimits.correctness = 10;
  RunnerSupervisor s(o);
  const RequestOutcome out = s.request(evaluate("deadline", hostileFile("forge_phase_deadline.py")));
  ASSERT_NE(out.error(), nullptr) << "the hang was waited out, and the candidate answered";
  EXPECT_EQ(out.error()->error.kind, protocol::ErrorKind::Timeout) << out.error()->error.message;
  EXPECT_EQ(out.error()->error.message, "timed out after 10 s while checking correctness");
}

// No process outlives the runner, whatever ends it (tests/hostile/leave_daemon.py): a daemon in a session of
// its own, started by an `atexit` handler while the executor shuts down, by a first call that then ends the
// executor with os._exit(7), or by one that hangs until the client's deadline. Each survived its runner,
// re-parented to init, before the judge killed its descendants at every end and the client killed the
// runner's whole tree (not just its process group) at a deadline.
TEST(RealRunner, ADaemonStartedWhileTheExecutorShutsDownDiesWithTheRunner) {
  REQUIRE_RUNNER();
  const std::string token = uniqueToken(1);
  {
    RunnerSupervisor s(realRunner());
    const RequestOutcome out = s.request(evaluate("atexit", daemonLeaver("atexit", token)));
    ASSERT_TRUE(out.isResult()) << out.error()->error.message << "\n" << out.error()->error.stderrTail;
    EXPECT_TRUE(out.result()->ok);
    s.stopRunner();  // shutdown: the executor's Python runs its atexit handlers
  }
  EXPECT_TRUE(sleepersGone(token)) << "a daemon started at the executor's exit outlived the runner";
}

TEST(RealRunner, ADaemonOfAnExecutorThatEndsItselfDiesWithIt) {
  REQUIRE_RUNNER();
  const std::string token = uniqueToken(2);
  RunnerSupervisor s(realRunner());
  const RequestOutcome out = s.request(evaluate("exit", daemonLeaver("exit", token)));
  ASSERT_NE(out.error(), nullptr);
  EXPECT_EQ(out.error()->error.kind, protocol::ErrorKind::Crash) << out.error()->error.message;
  EXPECT_EQ(out.error()->error.exitStatus, 7) << out.error()->error.message;
  EXPECT_TRUE(sleepersGone(token)) << "a daemon outlived its executor's os._exit(7)";
}

TEST(RealRunner, ADaemonOfARequestThatTimesOutDiesWithTheRunner) {
  REQUIRE_RUNNER();
  const std::string token = uniqueToken(3);
  SupervisorOptions o = realRunner();
  o.phaseLimits.correctness = 15;
  RunnerSupervisor s(o);
  const RequestOutcome out = s.request(evaluate("hang", daemonLeaver("hang", token)));
  ASSERT_NE(out.error(), nullptr);
  EXPECT_EQ(out.error()->error.kind, protocol::ErrorKind::Timeout) << out.error()->error.message;
  EXPECT_TRUE(sleepersGone(token)) << "a daemon outlived the runner its client killed at the deadline";
}

// A program that starts 200 processes (tests/hostile/many_processes.py) in a runner whose tree may hold 64:
// the client's count of the runner's processes ends the request before the program answers, whatever
// sessions the processes are in, and none is left. (As root, RLIMIT_NPROC does not bind, so this count is the
// cap; the program answered correctly with its 200 processes running before the client counted them.)
TEST(RealRunner, ProcessesPastTheClientsCapEndTheRequest) {
  REQUIRE_RUNNER();
  const std::string token = uniqueToken(4);
  SupervisorOptions o = realRunner();
  o.maxProcesses = 64;
  RunnerSupervisor s(o);
  std::string code = hostileFile("many_processes.py");
  code.replace(code.find("@TOKEN@"), 7, token);
  const RequestOutcome out = s.request(evaluate("many", code));
  ASSERT_NE(out.error(), nullptr) << "the program answered with its processes running";
  EXPECT_EQ(out.error()->error.kind, protocol::ErrorKind::Processes) << out.error()->error.message;
  EXPECT_NE(out.error()->error.message.find("more than the limit of 64"), std::string::npos)
      << out.error()->error.message;
  EXPECT_TRUE(sleepersGone(token)) << "a process of the program outlived the request";
}

// Nothing a request wrote outside its scratch folder stays (tests/hostile/fill_outside_scratch.py): files in
// /dev/shm, junk in the build cache (at its root, in a folder of its own, and past the quota in a tool's
// cache folder), junk appended to the seal log and a file beside its folder in the client's scratch root are
// gone once the answer is in, and the file-size limit refused its one 48 MiB file. All of it stayed, and the
// file was written, before the judge cleaned up after each request and the executor limited file sizes.
TEST(RealRunner, NothingARequestWroteOutsideItsScratchFolderStays) {
  REQUIRE_RUNNER();
  namespace fs = std::filesystem;
  const std::string token = uniqueToken(5);
  const fs::path xdg = fake::testRoot() / "xdg-cache", cache = xdg / "kernelscope" / "build";
  const fs::path sealLog = cache.parent_path() / "build-seals.log";
  fs::create_directories(cache);
  std::ofstream(sealLog, std::ios::app) << "";
  const auto sealLogBefore = fs::file_size(sealLog);
  SupervisorOptions o = realRunner();
  o.environment = {{"XDG_CACHE_HOME", xdg.string()}, {"KSCOPE_FILE_SIZE_MIB", "40"}, {"KSCOPE_CACHE_QUOTA_MIB", "48"}};
  RunnerSupervisor s(o);
  std::string code = hostileFile("fill_outside_scratch.py");
  code.replace(code.find("@TOKEN@"), 7, token);
  const RequestOutcome out = s.request(evaluate("fill", code));
  ASSERT_TRUE(out.isResult()) << out.error()->error.message << "\n" << out.error()->error.stderrTail;
  EXPECT_TRUE(out.result()->ok) << "the file-size limit did not refuse a 48 MiB file";
  for (int i = 0; i < 2; ++i)
    EXPECT_FALSE(fs::exists("/dev/shm/kscope-junk-" + token + "-" + std::to_string(i))) << "left in /dev/shm";
  EXPECT_FALSE(fs::exists(cache / ("junk-" + token + ".bin"))) << "left at the build cache's root";
  EXPECT_FALSE(fs::exists(cache / ("junk-" + token))) << "a folder left in the build cache";
  for (int i = 0; i < 3; ++i)
    EXPECT_FALSE(fs::exists(cache / "triton" / ("junk-" + token + "-" + std::to_string(i) + ".bin")))
        << "more than the quota left in the Triton cache";
  EXPECT_EQ(fs::file_size(sealLog), sealLogBefore) << "junk left in the seal log";
  EXPECT_FALSE(fs::exists(o.scratchRoot / ("junk-" + token + ".bin"))) << "left in the client's scratch root";
  std::error_code ec;
  for (int i = 0; i < 2; ++i) fs::remove("/dev/shm/kscope-junk-" + token + "-" + std::to_string(i), ec);
  fs::remove_all(xdg, ec);
}

// The memory limit covers the runner's whole tree (tests/hostile/hoard_in_children.py): four processes a
// program starts hold 1.5 GiB beside it, under a limit of 1536 MiB that the executor alone stays well below.
// The request ends with a `memory` error before the program answers, by the runner's own cgroup where one can
// be made (as root here) and by the client's sum over the runner's processes where not; no child is left.
// The program answered "correct" with its children holding the memory before the limit covered them.
class RealRunnerMemory : public ::testing::TestWithParam<bool> {};

TEST_P(RealRunnerMemory, MemoryHeldInChildProcessesCountsTowardsTheLimit) {
  REQUIRE_RUNNER();
  const bool cgroup = GetParam();
  const std::string token = uniqueToken(cgroup ? 6 : 7);
  SupervisorOptions o = realRunner();
  o.memoryLimit = MemoryLimit{1536u << 20, false};
  o.memoryCgroup = cgroup;
  RunnerSupervisor s(o);
  std::string code = hostileFile("hoard_in_children.py");
  code.replace(code.find("@TOKEN@"), 7, token);
  const RequestOutcome out = s.request(evaluate(cgroup ? "hoard-cgroup" : "hoard-sum", code));
  ASSERT_NE(out.error(), nullptr) << "the program answered with its children holding the memory";
  EXPECT_EQ(out.error()->error.kind, protocol::ErrorKind::Memory) << out.error()->error.message;
  EXPECT_NE(out.error()->error.message.find("more than the memory limit of 1536 MiB"), std::string::npos)
      << out.error()->error.message;
  if (!cgroup) {
    EXPECT_NE(out.error()->error.message.find("process(es) its programs started"), std::string::npos)
        << out.error()->error.message;
  }
  // The children run `python -c ... <mark> <token>`: none may be left.
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  auto holders = [&] {
    int n = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      std::ifstream cmd(entry.path() / "cmdline", std::ios::binary);
      const std::string cmdline((std::istreambuf_iterator<char>(cmd)), {});
      n += cmdline.find(std::string(1, '\0') + token + std::string(1, '\0')) != std::string::npos;
    }
    return n;
  };
  while (holders() > 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(holders(), 0) << "a child of the program outlived the request";
}

INSTANTIATE_TEST_SUITE_P(ByCgroupAndBySum, RealRunnerMemory, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Cgroup" : "Sum"; });

TEST(RealRunner, TheMemoryLimitIsMeasuredOnTheExecutor) {
  REQUIRE_RUNNER();
  SupervisorOptions o = realRunner();
  o.memoryLimit = MemoryLimit{700u << 20, false};  // resident memory only: no RLIMIT_AS to fail first
  RunnerSupervisor s(o);
  const std::string hoarder = "HOARD = []\n" + candidate("        HOARD.append(b'\\x01' * (900 << 20))\n"
                                                         "        import time\n        time.sleep(60)\n");
  const RequestOutcome o2 = s.request(evaluate("hoard", hoarder));
  ASSERT_NE(o2.error(), nullptr);
  EXPECT_EQ(o2.error()->error.kind, protocol::ErrorKind::Memory) << o2.error()->error.message;
}

}  // namespace
}  // namespace ks::supervisor
