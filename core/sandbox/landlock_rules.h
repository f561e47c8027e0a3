#pragma once
// Filesystem writes limited to a few folders with Landlock (raw system calls, no library). Reads and
// execution stay unrestricted. The rules bind the calling process and everything it starts afterwards, for
// good: they cannot be lifted. Landlock ABI versions: 1 the write rights, 2 renames and links across
// folders (REFER), 3 truncation, 6 scopes (no signals to, and no abstract Unix sockets of, processes outside
// the sandbox). Each right the kernel knows is handled; the result says which ABI was used.
#include <filesystem>
#include <string>
#include <vector>

namespace ks::sandbox {

// The kernel's Landlock ABI version; 0 when it has none or it is disabled (`why` then says which).
int landlockAbi(std::string* why = nullptr);

struct WriteRules {
  std::vector<std::filesystem::path> folders;  // everything beneath may be created, written, removed
  std::vector<std::filesystem::path> devices;  // files (e.g. /dev/null, /dev/nvidia0) that may be opened
                                               // for writing; a folder here (/dev/shm) counts as a folder
  bool scopeIpc = true;  // ABI >= 6: also scope signals and abstract Unix sockets (off only to diagnose)
};

struct LandlockOutcome {
  int abi = 0;                       // 0: not applied
  std::string error;                 // why not applied; empty when applied
  std::vector<std::string> skipped;  // rules' paths that do not exist (nothing to allow there)
};

// Restricts this process (the calling thread and whatever it starts later; see docs/security.md on threads
// that exist already) to `rules`. Needs PR_SET_NO_NEW_PRIVS, which it sets.
LandlockOutcome restrictWrites(const WriteRules& rules);

// The device files CUDA and torch write to that exist on this machine: /dev/null, /dev/zero, /dev/full,
// /dev/nvidia* (nvidiactl, nvidia-uvm, nvidia0..., the nvidia-caps folder) and /dev/shm.
std::vector<std::filesystem::path> deviceWriteTargets(const std::filesystem::path& dev = "/dev");

}  // namespace ks::sandbox
