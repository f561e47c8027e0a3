#include "core/nvcc/process_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

extern char** environ;

namespace ks::nvcc {
namespace {

std::vector<std::string> mergedEnvironment(
    const std::vector<std::pair<std::string, std::string>>& overrides) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    auto eq = entry.find('=');
    if (eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [k, v] : overrides) vars[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : vars) out.push_back(k + "=" + v);
  return out;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (auto& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

std::string formatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, s >= 10 ? "%.0f" : "%.3g", s);
  return buf;
}

}  // namespace

std::string ProcessOutput::describeEnd() const {
  if (!started) return "could not start: " + startError;
  if (cancelled) return "cancelled";
  if (timedOut) return "timed out after " + formatSeconds(seconds) + " s";
  if (signal != 0)
    return std::string("killed by signal ") + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exited with status " + std::to_string(exitCode);
}

ProcessOutput runProcess(const ProcessSpec& spec) {
  ProcessOutput out;
  const auto start = std::chrono::steady_clock::now();
  if (spec.argv.empty()) {
    out.startError = "no program given";
    return out;
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    out.startError = std::string("pipe: ") + std::strerror(errno);
    return out;
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  if (!spec.workingDirectory.empty())
    posix_spawn_file_actions_addchdir_np(&actions, spec.workingDirectory.c_str());

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t noSignals, defaults;
  sigemptyset(&noSignals);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &noSignals);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

  std::vector<std::string> args = spec.argv;
  std::vector<std::string> env = mergedEnvironment(spec.environment);
  auto argp = pointers(args);
  auto envp = pointers(env);
  pid_t pid = -1;
  int rc = posix_spawnp(&pid, args[0].c_str(), &actions, &attr, argp.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    out.startError = spec.argv[0] + ": " + std::strerror(rc);
    return out;
  }
  out.started = true;

  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  bool killed = false;
  char buf[65536];
  for (;;) {
    if (!killed && spec.cancel && spec.cancel->load()) {
      out.cancelled = killed = true;
      kill(-pid, SIGKILL);
    }
    double left = spec.deadlineSeconds - elapsed();
    if (!killed && left <= 0) {
      out.timedOut = killed = true;
      kill(-pid, SIGKILL);
    }
    pollfd p{fds[0], POLLIN, 0};
    int waitMs = killed ? 1000 : int(std::clamp(std::ceil(left * 1000), 1.0, 100.0));
    int n = poll(&p, 1, waitMs);
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (n == 0) {
      if (killed) break;  // a grandchild outside the group keeps the pipe open; stop waiting for it
      continue;
    }
    ssize_t got = read(fds[0], buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    std::size_t room = spec.maxOutputBytes > out.output.size() ? spec.maxOutputBytes - out.output.size() : 0;
    if (std::size_t(got) > room) out.outputTruncated = true;
    out.output.append(buf, std::min<std::size_t>(std::size_t(got), room));
  }
  close(fds[0]);

  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) out.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  out.seconds = elapsed();
  return out;
}

}  // namespace ks::nvcc
