#pragma once
// Resource limits the runner's executor puts on itself, and so on everything it starts (docs/security.md,
// "Processes" and "Files"): how many processes the user may have (RLIMIT_NPROC) and how large a file it may
// write (RLIMIT_FSIZE). Soft and hard limit alike, so a program cannot raise them again without
// CAP_SYS_RESOURCE.
#include <sys/types.h>

#include <cstdint>
#include <string>

namespace ks::sandbox {

// The tasks (processes and their threads) of real user `uid` on this machine: what RLIMIT_NPROC counts.
std::uint64_t tasksOfUser(uid_t uid);

struct ProcessCap {
  std::uint64_t limit = 0;  // the RLIMIT_NPROC set; 0 when none could be
  bool binds = false;       // false for real uid 0: the kernel never applies RLIMIT_NPROC to root's processes
  std::string note;         // why not set, or why it does not bind
};

// RLIMIT_NPROC: the tasks this process's real user has now, plus `allowance`. The kernel counts the user's
// tasks machine-wide (every process and thread of the user, the runner's own included), so the limit is the
// count at the start plus what the runner may add; for uid 0 it is set but never enforced, whatever the
// process's capabilities (kernel/fork.c exempts INIT_USER), and the client's count is the cap that holds.
ProcessCap capProcesses(std::uint64_t allowance);

// RLIMIT_FSIZE of `bytes`, with SIGXFSZ ignored so a write past it fails with EFBIG instead of killing the
// writer (the ignored disposition is inherited through exec: compilers and a program's children too).
// "" or why not.
std::string limitFileSize(std::uint64_t bytes);

}  // namespace ks::sandbox
