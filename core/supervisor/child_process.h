#pragma once
// A child process with its stdin, stdout and stderr connected to us, leading its own session and process
// group (no controlling terminal: it cannot push keystrokes into the user's shell) so the whole tree it
// starts (nvcc, compilers) can be killed at once. It dies with us: SIGKILL when the thread that spawned it
// ends (PR_SET_PDEATHSIG; a kill -9 of the client takes its runner along), so spawn from a thread that
// lives as long as the child should. stdin is a socket, so writing to a child that died returns EPIPE
// instead of raising SIGPIPE in our process. All our ends are non-blocking.
// Destroying a running ChildProcess kills its group and reaps it.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ks::supervisor {

struct SpawnSpec {
  std::vector<std::string> argv;                                 // argv[0]: the executable's path
  std::vector<std::pair<std::string, std::string>> environment;  // set on top of ours, or alone (below)
  bool replaceEnvironment = false;  // true: `environment` is the child's whole environment, nothing of ours
  std::filesystem::path workingDirectory;                        // empty: ours
  std::optional<std::uint64_t> addressSpaceLimit;                // RLIMIT_AS in bytes
  int cgroupProcsFd = -1;  // a cgroup's cgroup.procs the child joins before exec (runner_cgroup.h); -1: none
};

// How a child ended.
struct ExitStatus {
  int exitCode = -1;             // when it exited
  int signal = 0;                // when a signal killed it
  bool abandoned = false;        // SIGKILLed, but still not gone kKillGraceSeconds later: no longer waited for
  std::string describe() const;  // "exited with status 3", "was killed by SIGSEGV (segmentation fault)"
};

// How long a SIGKILLed child may take to go. A process whose GPU kernel hangs can sit in the driver long
// after SIGKILL (a CUDA-L1 program on the H100 held a batch's build stage for over 500 s); past this, a
// thread of its own reaps it and the caller goes on.
inline constexpr double kKillGraceSeconds = 30;
// How long a child told to stop (SIGTERM) may take before it is killed: kscope-runner's judge kills what is
// below it (up to 5 s for processes stuck in the kernel) and removes what the request left outside scratch.
inline constexpr double kTerminateGraceSeconds = 10;

class ChildProcess {
 public:
  // The running child, or why it could not start (the message names the executable and the reason).
  static std::pair<std::optional<ChildProcess>, std::string> spawn(const SpawnSpec& spec);

  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&& other) noexcept;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess();

  pid_t pid() const { return pid_; }
  int stdinFd() const { return stdin_; }
  int stdoutFd() const { return stdout_; }
  int stderrFd() const { return stderr_; }
  void closeStdin();

  // SIGKILL to every descendant of the child (found through /proc while the child lives, whatever group or
  // session they moved to), then to the whole process group.
  void killGroup();
  // SIGTERM to the child alone, so that it can end what it started and clean up (kscope-runner's judge does),
  // then, if it has not exited within `graceSeconds`, killGroup.
  void terminate(double graceSeconds = kTerminateGraceSeconds);
  std::optional<ExitStatus> tryWait();  // reaps without blocking; the status once it has ended
  // Waits up to `seconds` for it to end, then kills the group and reaps it, or abandons it (see ExitStatus).
  ExitStatus waitOrKill(double seconds);

 private:
  ChildProcess() = default;
  void release();

  pid_t pid_ = -1;
  int stdin_ = -1, stdout_ = -1, stderr_ = -1;
  std::optional<ExitStatus> exit_;
};

}  // namespace ks::supervisor
