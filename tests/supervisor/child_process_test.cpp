// ChildProcess as containment needs it (docs/security.md): an environment given whole, no controlling
// terminal (its own session), death with the thread that spawned it (PR_SET_PDEATHSIG), and the runner's
// memory cgroup where one can be made.
#include "core/supervisor/child_process.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/supervisor/runner_cgroup.h"

using namespace ks::supervisor;

namespace {

std::string readAll(int fd) {
  std::string out;
  char buf[4096];
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) break;
    out.append(buf, std::size_t(n));
  }
  return out;
}

// Fields of /proc/<pid>/stat after the command name: [0] state, [1] ppid, [2] pgrp, [3] session, [4] tty.
std::vector<long> statFields(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::istringstream rest(stat.substr(stat.rfind(')') + 4));
  std::vector<long> out{0};
  for (long v; out.size() < 5 && rest >> v;) out.push_back(v);
  return out;
}

}  // namespace

TEST(ChildProcess, AReplacedEnvironmentIsAllTheChildGets) {
  SpawnSpec spec;
  spec.argv = {"/usr/bin/env"};
  spec.environment = {{"ONLY", "this"}};
  spec.replaceEnvironment = true;
  auto [child, why] = ChildProcess::spawn(spec);
  ASSERT_TRUE(child) << why;
  EXPECT_EQ(readAll(child->stdoutFd()), "ONLY=this\n");
  EXPECT_EQ(child->waitOrKill(30).exitCode, 0);

  spec.replaceEnvironment = false;  // on top of ours
  auto [inherited, why2] = ChildProcess::spawn(spec);
  ASSERT_TRUE(inherited) << why2;
  const std::string text = readAll(inherited->stdoutFd());
  EXPECT_NE(text.find("ONLY=this\n"), std::string::npos);
  EXPECT_NE(text.find("PATH="), std::string::npos) << text;
  inherited->waitOrKill(30);
}

TEST(ChildProcess, TheChildLeadsItsOwnSessionWithoutATerminal) {
  auto [child, why] = ChildProcess::spawn(SpawnSpec{.argv = {"/bin/sleep", "600"}});
  ASSERT_TRUE(child) << why;
  const std::vector<long> f = statFields(child->pid());
  ASSERT_EQ(f.size(), 5u);
  EXPECT_EQ(f[2], child->pid()) << "process group";
  EXPECT_EQ(f[3], child->pid()) << "session";
  EXPECT_EQ(f[4], 0) << "controlling terminal";
  child->killGroup();
  EXPECT_EQ(child->waitOrKill(30).signal, SIGKILL);
}

TEST(ChildProcess, TheChildDiesWithTheThreadThatSpawnedIt) {
  std::optional<ChildProcess> child;
  std::thread([&] {
    auto [spawned, why] = ChildProcess::spawn(SpawnSpec{.argv = {"/bin/sleep", "600"}});
    ASSERT_TRUE(spawned) << why;
    child = std::move(spawned);
  }).join();
  ASSERT_TRUE(child);
  std::optional<ExitStatus> status;
  for (auto t = std::chrono::steady_clock::now();
       !(status = child->tryWait()) && std::chrono::steady_clock::now() - t < std::chrono::seconds(30);)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(status) << "the child outlived the thread that spawned it";
  EXPECT_EQ(status->signal, SIGKILL);
}

// The runner's memory cgroup (runner_cgroup.h), where this machine lets one be made: a child joins it before
// exec, the kernel ends it past the cgroup's limit and says so, and what is left in it, in a session of its
// own, is killed with it.
TEST(RunnerCgroup, AChildJoinsItTheKernelEndsItPastTheLimitAndWhatIsLeftIsKilled) {
  std::string why;
  std::unique_ptr<RunnerCgroup> cgroup = RunnerCgroup::create(64u << 20, &why);
  if (!cgroup) GTEST_SKIP() << "no memory cgroup can be made here: " << why;
  SpawnSpec hog;
  hog.argv = {"/bin/sh", "-c", "setsid sleep 600 & exec python3 -c 'b = bytearray(256 << 20); b[::4096] = b\"\\x01\" * len(b[::4096])'"};
  hog.cgroupProcsFd = cgroup->procsFd();
  auto [child, error] = ChildProcess::spawn(hog);
  ASSERT_TRUE(child) << error;
  const ExitStatus status = child->waitOrKill(60);
  EXPECT_EQ(status.signal, SIGKILL) << status.describe();
  EXPECT_GE(cgroup->oomKills(), 1u);
  std::ifstream procs(cgroup->path() / "cgroup.procs");
  long leftover = 0;
  ASSERT_TRUE(procs >> leftover) << "the setsid'd sleep should still be in the cgroup";
  cgroup->killAll();
  for (int i = 0; i < 200 && kill(static_cast<pid_t>(leftover), 0) == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::ifstream stat("/proc/" + std::to_string(leftover) + "/stat");
  std::string line;
  std::getline(stat, line);
  EXPECT_TRUE(line.empty() || line[line.rfind(')') + 2] == 'Z') << "the sleep outlived killAll: " << line;
}
