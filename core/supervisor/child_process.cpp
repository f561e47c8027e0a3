#include "core/supervisor/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <thread>

#include "core/sandbox/descendants.h"
#include "core/supervisor/signal_name.h"

extern char** environ;

namespace ks::supervisor {
namespace {

constexpr unsigned kCloseRangeCloexec = 1u << 2;  // CLOSE_RANGE_CLOEXEC (linux/close_range.h)

void closeFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

void setNonBlocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

ExitStatus statusOf(int status) {
  ExitStatus s;
  if (WIFEXITED(status)) s.exitCode = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) s.signal = WTERMSIG(status);
  return s;
}

}  // namespace

std::string ExitStatus::describe() const {
  if (abandoned)
    return "was killed by " + signalName(signal) + " and had still not exited " +
           std::to_string(int(kKillGraceSeconds)) + " s later (stuck in the kernel or GPU driver?)";
  if (signal != 0) return "was killed by " + signalName(signal);
  return "exited with status " + std::to_string(exitCode);
}

std::pair<std::optional<ChildProcess>, std::string> ChildProcess::spawn(const SpawnSpec& spec) {
  if (spec.argv.empty()) return {std::nullopt, "no program to start"};
  // Everything the child needs is prepared before fork: after it, the child only makes system calls.
  std::map<std::string, std::string> vars;
  for (char** e = spec.replaceEnvironment ? nullptr : environ; e && *e; ++e) {
    std::string entry = *e;
    if (auto eq = entry.find('='); eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [k, v] : spec.environment) vars[k] = v;
  std::vector<std::string> envStrings, argStrings = spec.argv;
  for (const auto& [k, v] : vars) envStrings.push_back(k + "=" + v);
  std::vector<char*> envp, argv;
  for (auto& s : envStrings) envp.push_back(s.data());
  for (auto& s : argStrings) argv.push_back(s.data());
  envp.push_back(nullptr);
  argv.push_back(nullptr);
  const std::string cwd = spec.workingDirectory.string();
  rlimit limit{};
  if (spec.addressSpaceLimit) limit.rlim_cur = limit.rlim_max = *spec.addressSpaceLimit;

  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, report[2] = {-1, -1};
  auto closeAll = [&] {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1], report[0], report[1]})
      if (fd >= 0) close(fd);
  };
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
      pipe2(err, O_CLOEXEC) != 0 || pipe2(report, O_CLOEXEC) != 0) {
    std::string why = std::string("cannot create the runner's pipes: ") + std::strerror(errno);
    closeAll();
    return {std::nullopt, why};
  }

  const pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) {
    std::string why = std::string("fork: ") + std::strerror(errno);
    closeAll();
    return {std::nullopt, why};
  }
  if (pid == 0) {
    // Dies with the thread that spawned it; if that already happened (we were re-parented before the
    // prctl), go now.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    setsid();  // its own session and process group, no controlling terminal
    dup2(in[1], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    syscall(SYS_close_range, 3u, ~0u, kCloseRangeCloexec);  // no inherited descriptor reaches the runner
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGPIPE, SIG_DFL);
    int stage = 0;  // what failed: 0 chdir, 1 setrlimit, 2 exec, 3 joining the cgroup
    if (cwd.empty() || chdir(cwd.c_str()) == 0) {
      stage = 1;
      if (!spec.addressSpaceLimit || setrlimit(RLIMIT_AS, &limit) == 0) {
        stage = 3;
        if (spec.cgroupProcsFd < 0 || ::write(spec.cgroupProcsFd, "0", 1) == 1) {
          stage = 2;
          execve(argv[0], argv.data(), envp.data());
        }
      }
    }
    int failure[2] = {stage, errno};
    ssize_t ignored = write(report[1], failure, sizeof failure);
    (void)ignored;
    _exit(127);
  }
  // No setpgid from here: the child's setsid would fail on a group leader. Its group exists once the
  // report pipe closes (at its exec, after setsid), which is waited for below.
  for (int fd : {in[1], out[1], err[1], report[1]}) close(fd);

  int failure[2] = {0, 0};
  ssize_t got;
  while ((got = read(report[0], failure, sizeof failure)) < 0 && errno == EINTR) {
  }
  close(report[0]);
  ChildProcess child;
  child.pid_ = pid;
  child.stdin_ = in[0];
  child.stdout_ = out[0];
  child.stderr_ = err[0];
  if (got == sizeof failure) {
    child.waitOrKill(5);
    std::string what = failure[0] == 0   ? "cannot enter the working folder " + cwd
                       : failure[0] == 1 ? std::string("cannot set the address-space limit")
                       : failure[0] == 3 ? std::string("cannot join the runner's cgroup")
                                         : "cannot run " + spec.argv[0];
    return {std::nullopt, what + ": " + std::strerror(failure[1])};
  }
  setNonBlocking(child.stdin_);
  setNonBlocking(child.stdout_);
  setNonBlocking(child.stderr_);
  return {std::move(child), ""};
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept { *this = std::move(other); }

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this != &other) {
    release();
    pid_ = std::exchange(other.pid_, -1);
    stdin_ = std::exchange(other.stdin_, -1);
    stdout_ = std::exchange(other.stdout_, -1);
    stderr_ = std::exchange(other.stderr_, -1);
    exit_ = std::exchange(other.exit_, std::nullopt);
  }
  return *this;
}

ChildProcess::~ChildProcess() { release(); }

void ChildProcess::release() {
  if (pid_ > 0 && !exit_) waitOrKill(0);
  closeFd(stdin_);
  closeFd(stdout_);
  closeFd(stderr_);
  pid_ = -1;
}

void ChildProcess::closeStdin() { closeFd(stdin_); }

void ChildProcess::killGroup() {
  if (pid_ <= 0) return;
  // First every descendant, while the child (a child subreaper, as kscope-runner's judge is) still holds
  // the ones that left its group and session: killed with the child, they would be re-parented to init and
  // found by nobody. Not once the child is reaped: its pid may belong to another process by then.
  if (!exit_) sandbox::killDescendantsOf(pid_);
  kill(-pid_, SIGKILL);
}

void ChildProcess::terminate(double graceSeconds) {
  if (pid_ <= 0 || exit_) return;
  kill(pid_, SIGTERM);
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(graceSeconds);
  while (!tryWait() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (!exit_) killGroup();
}

std::optional<ExitStatus> ChildProcess::tryWait() {
  if (exit_ || pid_ <= 0) return exit_;
  int status = 0;
  pid_t r;
  while ((r = waitpid(pid_, &status, WNOHANG)) < 0 && errno == EINTR) {
  }
  if (r == pid_) {
    exit_ = statusOf(status);
    kill(-pid_, SIGKILL);  // whatever it left behind in its group goes with it
  }
  return exit_;
}

ExitStatus ChildProcess::waitOrKill(double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (!tryWait() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  if (!exit_) {
    killGroup();
    const auto grace = std::chrono::steady_clock::now() + std::chrono::duration<double>(kKillGraceSeconds);
    while (!tryWait() && std::chrono::steady_clock::now() < grace)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!exit_) {
      std::thread([pid = pid_] {
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
      }).detach();
      ExitStatus abandoned;
      abandoned.signal = SIGKILL;
      abandoned.abandoned = true;
      exit_ = abandoned;
    }
  }
  return *exit_;
}

}  // namespace ks::supervisor
