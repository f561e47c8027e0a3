#pragma once
// How RunnerSupervisor starts kscope-runner and what it allows it.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/supervisor/phase_deadlines.h"

namespace ks::supervisor {

struct MemoryLimit {
  std::uint64_t bytes = 0;
  // true: also set RLIMIT_AS on the runner, so allocations past the limit fail inside it. Only for a
  // CPU-only runner: the CUDA driver reserves far more address space than it uses and breaks under RLIMIT_AS.
  // Either way the runner's resident memory is polled and the runner is killed when it exceeds the limit.
  bool addressSpace = false;
};

struct SupervisorOptions {
  std::filesystem::path runner;                                  // the kscope-runner executable
  std::vector<std::string> arguments;                            // after argv[0]
  std::vector<std::pair<std::string, std::string>> environment;  // added to ours
  // The runner's working folder is <scratchRoot>/runner-<n>; a request with no options.scratch gets
  // <scratchRoot>/<request id>. Both are removed when done with (the root too, when left empty) unless
  // keepScratch.
  std::filesystem::path scratchRoot;
  bool keepScratch = false;
  double startDeadlineSeconds = 120;  // until `ready` (importing torch and starting CUDA can be slow)
  // When no phase deadline applies (before the first `phase` event, hello, build, shutdown): the longest
  // silence allowed between the request and its first event, or between two events.
  double answerDeadlineSeconds = 120;
  // How long each phase may run (phase_deadlines.h): the client's own limits. A `phase` event's announced
  // deadline can only shorten a phase (the candidate can forge that line), and a phase announced again
  // continues its clock.
  PhaseLimits phaseLimits;
  // The longest any one phase may run, below phaseLimits; 0: no further cap. For a user who knows their
  // programs are quick and wants a hung one stopped sooner.
  double maxPhaseSeconds = 0;
  // The memory limit covers the runner's whole tree: the processes that run programs (polled every
  // memoryPollSeconds) plus every other process below the runner (summed every treePollSeconds), and, where
  // one can be made, a memory cgroup of the runner's own with a hard limit a tenth (at least 64 MiB) above
  // it, in which the kernel counts everything (memoryCgroup; runner_cgroup.h).
  std::optional<MemoryLimit> memoryLimit;
  double memoryPollSeconds = 0.05;
  bool memoryCgroup = true;
  // The most processes the runner's tree may hold at once: every process below the runner's judge (its
  // executor and whatever a program started, in any session), counted every treePollSeconds; past it the
  // tree is killed and the request ends with a `processes` error. 0: no cap. The executor's own RLIMIT_NPROC
  // stops a fork earlier for a user other than root; for root it does not bind, and this count is the cap.
  std::size_t maxProcesses = 512;
  double treePollSeconds = 0.5;
  std::size_t stderrTailLines = 30;
  std::size_t maxLineBytes = 256u << 20;  // a longer stdout line is a protocol error
};

}  // namespace ks::supervisor

namespace ks::supervisor {

// Options for a client evaluating on `device` ("cpu", "cuda", or "" for the runner's choice): scratch under
// $TMPDIR/kscope-<pid>, and a memory limit when `memoryLimitBytes` > 0 — enforced with RLIMIT_AS as well
// only when the device is "cpu" (see MemoryLimit).
SupervisorOptions clientSupervisorOptions(const std::filesystem::path& runner, const std::string& device,
                                          std::uint64_t memoryLimitBytes);

// The options of runner `index` of several that one client keeps at once (kscope batch's pools, the GUI's
// one runner per GPU): `base` with a scratch root of its own, <scratchRoot>/<name>-<index> (each supervisor
// numbers its runner-<n> folders from 1, so runners sharing a root would collide), and `environment` added
// to the runner's (e.g. its own CUDA_VISIBLE_DEVICES, cluster::gpuRunnerEnvironment).
SupervisorOptions poolRunnerOptions(const SupervisorOptions& base, const std::string& name, int index,
                                    const std::vector<std::pair<std::string, std::string>>& environment = {});

// The memory limit a runner runs under, and why, in one place for the CLI and the GUI. A runner always has
// one unless the user turns it off: by default three quarters of this machine's memory, shared among the
// `runners` that may run at once (kscope batch --jobs), and never below 2 GiB (torch and a CUDA context
// alone hold about 1.5 GiB).
struct ChosenMemoryLimit {
  std::uint64_t bytes = 0;  // 0: no limit
  std::string why;          // "12288 MiB (default: 3/4 of this machine's 16384 MiB)", "4096 MiB (--memory-limit)"
};
// `requestedMiB` < 0: the default; 0: no limit; > 0: that many MiB. `option` names the setting in `why`.
ChosenMemoryLimit chooseMemoryLimit(double requestedMiB, int runners = 1,
                                    const std::string& option = "--memory-limit");
std::uint64_t physicalMemoryBytes();  // of this machine; 8 GiB when the system does not say

}  // namespace ks::supervisor
