// Each mechanism of core/sandbox applied in a forked child, which then tries what a hostile program would:
// the child's exit status says what happened (0: everything as expected; otherwise the number of the first
// check that failed), so this test process itself is never contained.
#include <errno.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "core/sandbox/clean_environment.h"
#include "core/sandbox/contain_candidate_process.h"
#include "core/sandbox/descendants.h"
#include "core/sandbox/landlock_rules.h"
#include "core/sandbox/network_filter.h"
#include "core/sandbox/resource_limits.h"

namespace fs = std::filesystem;
using namespace ks::sandbox;

namespace {

// Runs `body` in a child; its return value is the child's exit status.
int inChild(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

bool writeFile(const fs::path& p) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  const bool ok = ::write(fd, "x", 1) == 1;
  ::close(fd);
  return ok;
}

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kscope-sandbox-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "inside");
    fs::create_directories(dir_ / "outside");
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

bool alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

}  // namespace

TEST(CleanEnvironment, KeepsWhatTheRunnerAndCudaReadAndDropsTheStoreAndSecrets) {
  std::vector<std::string> entries = {
      "PATH=/usr/bin", "HOME=/home/me", "LANG=C.UTF-8", "LC_ALL=C", "CUDA_VISIBLE_DEVICES=1",
      "NVIDIA_VISIBLE_DEVICES=all", "KSCOPE_PYTHON=/venv/bin/python", "PYTHONPATH=/x",
      "LD_LIBRARY_PATH=/usr/local/cuda/lib64", "CUTLASS_DIR=/opt/cutlass", "TORCH_CUDA_ARCH_LIST=9.0",
      "CUDA_HOME=/usr/local/cuda", "XDG_CACHE_HOME=/c",
      // must not pass:
      "KSCOPE_RESULTS_DB=/home/me/store.sqlite", "XDG_DATA_HOME=/home/me/.local/share",
      "AWS_SECRET_ACCESS_KEY=abc", "AWS_ACCESS_KEY_ID=abc", "GITHUB_TOKEN=abc", "HF_TOKEN=abc",
      "SSH_AUTH_SOCK=/tmp/ssh-x/agent.1", "CUDA_API_TOKEN=abc", "TORCH_SECRET=abc", "PWD=/home/me/work",
      "OLDPWD=/home/me", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus", "NOEQUALS"};
  std::vector<char*> environ;
  for (auto& e : entries) environ.push_back(e.data());
  environ.push_back(nullptr);
  const EnvironmentList env = cleanEnvironment(environ.data());
  std::set<std::string> names;
  for (const auto& [k, v] : env) names.insert(k);
  for (const char* kept : {"PATH", "HOME", "LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES",
                           "KSCOPE_PYTHON", "PYTHONPATH", "LD_LIBRARY_PATH", "CUTLASS_DIR",
                           "TORCH_CUDA_ARCH_LIST", "CUDA_HOME", "XDG_CACHE_HOME"})
    EXPECT_TRUE(names.count(kept)) << kept;
  for (const char* dropped :
       {"KSCOPE_RESULTS_DB", "XDG_DATA_HOME", "AWS_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "GITHUB_TOKEN",
        "HF_TOKEN", "SSH_AUTH_SOCK", "CUDA_API_TOKEN", "TORCH_SECRET", "PWD", "OLDPWD",
        "DBUS_SESSION_BUS_ADDRESS", "NOEQUALS"})
    EXPECT_FALSE(names.count(dropped)) << dropped;
  EnvironmentList more = env;
  setVariable(more, "PATH", "/bin");
  setVariable(more, "TMPDIR", "/s");
  EXPECT_EQ(more.size(), env.size() + 1);
  EXPECT_EQ(
      std::find(more.begin(), more.end(), std::pair<std::string, std::string>{"PATH", "/bin"}) - more.begin(),
      0);
}

// Tools that cache per user (CuPy's ~/.cupy, Triton, Inductor, torch's extensions) are pointed into the build
// cache, and Inductor compiles in the runner: its worker processes cannot start CUDA under the /proc rule
// below (without this, three CUDA-L1 programs fail to load or compile in a contained runner).
TEST(ToolDirectories, EveryToolCacheLiesInTheBuildCacheAndInductorCompilesInProcess) {
  const fs::path scratch = "/s", cache = "/c";
  std::map<std::string, std::string> vars;
  for (const auto& [name, value] : toolDirectories(scratch, cache)) vars[name] = value;
  for (const char* name : {"TORCH_EXTENSIONS_DIR", "CUDA_CACHE_PATH", "TRITON_CACHE_DIR", "TORCHINDUCTOR_CACHE_DIR",
                           "PYTORCH_KERNEL_CACHE_PATH", "CUPY_CACHE_DIR"}) {
    ASSERT_TRUE(vars.count(name)) << name;
    EXPECT_EQ(fs::path(vars[name]).parent_path(), cache) << name;
  }
  EXPECT_EQ(fs::path(vars["TMPDIR"]).parent_path(), scratch);
  EXPECT_EQ(vars["TORCHINDUCTOR_COMPILE_THREADS"], "1");
  EXPECT_EQ(vars["PYTHONDONTWRITEBYTECODE"], "1");
}

TEST_F(SandboxTest, LandlockLetsWritesHappenOnlyUnderTheAllowedFolders) {
  std::string why;
  const int abi = landlockAbi(&why);
  if (abi == 0) GTEST_SKIP() << "no Landlock on this kernel: " << why;
  std::ofstream(dir_ / "outside" / "existing.txt") << "keep";
  const int status = inChild([&]() -> int {
    WriteRules rules;
    rules.folders = {dir_ / "inside"};
    rules.devices = deviceWriteTargets();
    if (restrictWrites(rules).abi != abi) return 1;
    if (!writeFile(dir_ / "inside" / "a.txt")) return 2;
    fs::create_directories(dir_ / "inside" / "sub" / "deeper");
    if (!writeFile(dir_ / "inside" / "sub" / "deeper" / "b.txt")) return 3;
    if (writeFile(dir_ / "outside" / "c.txt") || errno != EACCES) return 4;         // a new file
    if (writeFile(dir_ / "outside" / "existing.txt") || errno != EACCES) return 5;  // overwrite
    if (::unlink((dir_ / "outside" / "existing.txt").c_str()) == 0 || errno != EACCES) return 6;
    if (::mkdir((dir_ / "outside" / "d").c_str(), 0755) == 0) return 7;
    if (::rename((dir_ / "outside" / "existing.txt").c_str(), (dir_ / "inside" / "stolen").c_str()) == 0)
      return 8;
    if (::truncate((dir_ / "outside" / "existing.txt").c_str(), 0) == 0) return 9;
    if (!writeFile("/dev/null")) return 10;
    // The parent's working folder through /proc, as a program would find its client's.
    const fs::path parentCwd = "/proc/" + std::to_string(getppid()) + "/cwd";
    if (writeFile(parentCwd / "kscope-sandbox-test-escape.txt")) return 11;
    // Reads stay open.
    std::ifstream in(dir_ / "outside" / "existing.txt");
    std::string text;
    in >> text;
    if (text != "keep") return 12;
    return 0;
  });
  EXPECT_EQ(status, 0) << "failed check " << status;
  EXPECT_TRUE(fs::exists(dir_ / "outside" / "existing.txt"));
  EXPECT_FALSE(fs::exists(dir_ / "outside" / "c.txt"));
  EXPECT_FALSE(fs::exists(fs::current_path() / "kscope-sandbox-test-escape.txt"));
}

// The CUDA driver names its threads through /proc/self/task/<tid>/comm and cuInit fails (304) when it cannot:
// the runner's rules must leave the process's own /proc entry writable, and only its own.
TEST_F(SandboxTest, TheContainedProcessMayWriteItsOwnProcEntryButNoOtherProcesss) {
  if (landlockAbi() == 0) GTEST_SKIP() << "no Landlock on this kernel";
  const fs::path parentComm = "/proc/" + std::to_string(getpid()) + "/comm";
  const int uncontained = ::open(parentComm.c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(uncontained, 0) << "uncontained, the test's own entry opens";
  ::close(uncontained);
  const int status = inChild([&]() -> int {
    unsetenv("KSCOPE_WRITABLE");
    unsetenv("KSCOPE_CONTAINMENT");
    const auto c = containCandidateProcess({dir_ / "inside" / "scratch", dir_ / "inside" / "cache"});
    if (c.filesystem != "landlock") return 1;
    const int own = ::open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC);
    if (own < 0) return 2;
    const bool named = ::write(own, "kscope-probe", 12) == 12;
    ::close(own);
    if (!named) return 3;
    bool threadNamed = false;  // a later thread (CUDA's helpers) names itself through its task entry
    std::thread([&] {
      const std::string task = "/proc/self/task/" + std::to_string(gettid()) + "/comm";
      const int fd = ::open(task.c_str(), O_WRONLY | O_CLOEXEC);
      threadNamed = fd >= 0 && ::write(fd, "kscope-helper", 13) == 13;
      if (fd >= 0) ::close(fd);
    }).join();
    if (!threadNamed) return 4;
    if (::open(parentComm.c_str(), O_WRONLY | O_CLOEXEC) >= 0 || errno != EACCES) return 5;  // the client's
    return 0;
  });
  EXPECT_EQ(status, 0) << "failed check " << status;
}

TEST_F(SandboxTest, LandlockScopesSignalsToProcessesOutside) {
  if (landlockAbi() < 6) GTEST_SKIP() << "Landlock ABI " << landlockAbi() << " has no signal scope";
  const int status = inChild([&]() -> int {
    WriteRules rules;
    rules.folders = {dir_ / "inside"};
    if (restrictWrites(rules).abi == 0) return 1;
    if (::kill(getppid(), 0) == 0 || errno != EPERM) return 2;  // the test process: outside the sandbox
    const pid_t child = fork();                                 // inside: its own child
    if (child == 0) {
      pause();
      _exit(0);
    }
    if (::kill(child, SIGKILL) != 0) return 3;
    waitpid(child, nullptr, 0);
    return 0;
  });
  EXPECT_EQ(status, 0) << "failed check " << status;
}

TEST(NetworkFilter, RefusesInternetSocketsAndKeepsUnixOnes) {
  const int status = inChild([]() -> int {
    if (!installNetworkFilter().empty()) return 1;
    for (int family : {AF_INET, AF_INET6, AF_PACKET, AF_VSOCK}) {
      errno = 0;
      const int fd = ::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
      if (fd >= 0 || errno != EPERM) return 2;
    }
    const int dgram = ::socket(AF_INET, SOCK_DGRAM, 0);
    if (dgram >= 0 || errno != EPERM) return 3;
    const int unixFd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (unixFd < 0) return 4;
    ::close(unixFd);
    int pair[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return 5;
    if (::socketpair(AF_INET, SOCK_STREAM, 0, pair) == 0 || errno != EPERM) return 6;
    if (syscall(SYS_io_uring_setup, 4, nullptr) == 0 || errno != EPERM) return 7;
    // Children inherit the filter.
    const pid_t child = fork();
    if (child == 0) _exit(::socket(AF_INET, SOCK_STREAM, 0) < 0 && errno == EPERM ? 0 : 1);
    int s = 0;
    waitpid(child, &s, 0);
    if (!WIFEXITED(s) || WEXITSTATUS(s) != 0) return 8;
    return 0;
  });
  EXPECT_EQ(status, 0) << "failed check " << status;
}

// A runner-like process: child subreaper, a program's leftovers (a child in a new session, a double-forked
// daemon, a process group of its own), then killDescendants. Their pids come back through a pipe.
TEST(Descendants, EverySetsidChildAndDoubleForkedDaemonIsKilledAndReaped) {
  int pids[2];
  ASSERT_EQ(pipe(pids), 0);
  const int status = inChild([&]() -> int {
    close(pids[0]);
    if (!becomeChildSubreaper()) return 1;
    auto report = [&](pid_t p) { return ::write(pids[1], &p, sizeof p) == sizeof p; };
    const pid_t session = fork();  // setsid'd child
    if (session == 0) {
      setsid();
      pause();
      _exit(0);
    }
    int sync[2];
    if (pipe(sync) != 0) return 2;
    const pid_t middle = fork();  // double fork: the middle exits, the daemon is orphaned
    if (middle == 0) {
      setsid();
      const pid_t daemon = fork();
      if (daemon == 0) {
        pause();
        _exit(0);
      }
      if (::write(sync[1], &daemon, sizeof daemon) != sizeof daemon) _exit(1);
      _exit(0);
    }
    pid_t daemon = 0;
    if (::read(sync[0], &daemon, sizeof daemon) != sizeof daemon) return 3;
    waitpid(middle, nullptr, 0);
    const pid_t group = fork();  // its own process group, with a child of its own
    if (group == 0) {
      setpgid(0, 0);
      if (fork() == 0) {
        pause();
        _exit(0);
      }
      pause();
      _exit(0);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (!report(session) || !report(daemon) || !report(group)) return 4;
    if (descendantsOf(getpid()).size() < 4)
      return 5;  // session, daemon (re-parented to us), group, its child
    const KillReport killed = killDescendants();
    if (killed.killed < 4 || !killed.alive.empty()) return 6;
    if (!descendantsOf(getpid()).empty()) return 7;  // reaped too: not even zombies
    return 0;
  });
  close(pids[1]);
  EXPECT_EQ(status, 0) << "failed check " << status;
  pid_t pid = 0;
  int seen = 0;
  while (::read(pids[0], &pid, sizeof pid) == sizeof pid) {
    ++seen;
    EXPECT_FALSE(alive(pid)) << "process " << pid << " outlived killDescendants";
  }
  close(pids[0]);
  EXPECT_EQ(seen, 3);
}

TEST(Descendants, ThePidsExceptedAreSparedButNotTheirChildren) {
  const int status = inChild([&]() -> int {
    if (!becomeChildSubreaper()) return 1;
    int sync[2];
    if (pipe(sync) != 0) return 2;
    const pid_t spared = fork();  // the "executor": spared, its child is not
    if (spared == 0) {
      const pid_t leftover = fork();
      if (leftover == 0) {
        pause();
        _exit(0);
      }
      if (::write(sync[1], &leftover, sizeof leftover) != sizeof leftover) _exit(1);
      for (;;) {
        if (waitpid(-1, nullptr, 0) < 0) pause();  // reaps its killed child, as the executor would
      }
    }
    pid_t leftover = 0;
    if (::read(sync[0], &leftover, sizeof leftover) != sizeof leftover) return 3;
    const KillReport killed = killDescendants({spared});
    if (killed.killed != 1 || !killed.alive.empty()) return 4;
    if (!alive(spared)) return 5;
    for (int i = 0; i < 500 && alive(leftover); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (alive(leftover)) return 6;
    kill(spared, SIGKILL);
    waitpid(spared, nullptr, 0);
    return 0;
  });
  EXPECT_EQ(status, 0) << "failed check " << status;
}

TEST(Descendants, NothingToKillIsQuick) {
  const auto start = std::chrono::steady_clock::now();
  const KillReport report = killDescendants();
  EXPECT_EQ(report.killed, 0);
  EXPECT_TRUE(report.alive.empty());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

// What a client does before it kills its runner: every descendant of another process (a subreaper, as the
// runner's judge is), a daemon in a session of its own included, is killed while the root lives; the root is
// spared.
TEST(Descendants, AnotherProcesssWholeTreeIsKilledWhileItLives) {
  int sync[2];
  ASSERT_EQ(pipe(sync), 0);
  const pid_t root = fork();
  if (root == 0) {
    close(sync[0]);
    becomeChildSubreaper();
    const pid_t middle = fork();
    if (middle == 0) {
      setsid();
      const pid_t daemon = fork();
      if (daemon == 0) {
        pause();
        _exit(0);
      }
      if (::write(sync[1], &daemon, sizeof daemon) != sizeof daemon) _exit(1);
      _exit(0);
    }
    for (;;)
      if (waitpid(-1, nullptr, 0) < 0) pause();  // reaps, as the judge does
  }
  close(sync[1]);
  pid_t daemon = 0;
  ASSERT_EQ(::read(sync[0], &daemon, sizeof daemon), static_cast<ssize_t>(sizeof daemon));
  close(sync[0]);
  for (int i = 0; i < 500 && descendantsOf(root).size() != 1; ++i)  // the middle has gone, the daemon is the root's
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const KillReport killed = killDescendantsOf(root);
  EXPECT_EQ(killed.killed, 1);
  EXPECT_TRUE(killed.alive.empty());
  for (int i = 0; i < 500 && alive(daemon); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_FALSE(alive(daemon)) << "the daemon outlived killDescendantsOf";
  EXPECT_TRUE(alive(root)) << "the root is spared";
  kill(root, SIGKILL);
  waitpid(root, nullptr, 0);
}

// RLIMIT_NPROC counts the user's tasks machine-wide and stops a fork past them, for a user other than root;
// for uid 0 the kernel never applies it, whatever the capabilities, and capProcesses says so.
TEST(ResourceLimits, TheProcessCapStopsForksOfAUserOtherThanRootAndSaysItDoesNotBindRoot) {
  if (getuid() != 0) GTEST_SKIP() << "needs root to become another user; as a user the cap binds (below)";
  const int asRoot = inChild([]() -> int {
    const ProcessCap cap = capProcesses(4);
    if (cap.limit == 0) return 1;
    if (cap.binds || cap.note.find("does not bind uid 0") == std::string::npos) return 2;
    return 0;
  });
  EXPECT_EQ(asRoot, 0) << "failed check " << asRoot;
  const int asNobody = inChild([]() -> int {
    if (setgid(65534) != 0 || setuid(65534) != 0) return 1;
    const ProcessCap cap = capProcesses(4);
    if (cap.limit == 0 || !cap.binds) return 2;
    std::vector<pid_t> children;
    int refused = 0;
    for (int i = 0; i < 20 && refused == 0; ++i) {
      const pid_t pid = fork();
      if (pid == 0) {
        pause();
        _exit(0);
      }
      if (pid < 0 && errno == EAGAIN) ++refused;
      if (pid > 0) children.push_back(pid);
    }
    for (pid_t pid : children) kill(pid, SIGKILL);
    for (pid_t pid : children) waitpid(pid, nullptr, 0);
    if (refused == 0) return 3;
    if (children.size() > 6) return 4;  // the allowance, give or take the count's own moment
    return 0;
  });
  EXPECT_EQ(asNobody, 0) << "failed check " << asNobody;
}
