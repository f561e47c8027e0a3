#pragma once
// A memory cgroup of one runner's own, where one can be made (docs/security.md, "Memory"): beside the
// client's, in the client's own cgroup, with the memory limit as its hard limit, so that the kernel counts
// and limits every process of the runner's tree together (whatever session it moved to, and what it put in
// /dev/shm), and says when it had to end one (an OOM kill in the cgroup). cgroup v2 (memory.max,
// memory.events) where the memory controller is enabled for the client's cgroup's children, else cgroup v1
// (memory.limit_in_bytes, memory.oom_control). Making one needs write access to the client's cgroup: root,
// or a cgroup delegated to the user (`systemd-run --user --scope -p Delegate=yes`); where none can be made,
// the supervisor's own sum over the runner's processes is the limit, and `why` says so.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace ks::supervisor {

class RunnerCgroup {
 public:
  // A fresh cgroup limited to `memoryBytes`, or nullopt and why not.
  static std::unique_ptr<RunnerCgroup> create(std::uint64_t memoryBytes, std::string* why);
  ~RunnerCgroup();  // kills what is left in it and removes it
  RunnerCgroup(const RunnerCgroup&) = delete;
  RunnerCgroup& operator=(const RunnerCgroup&) = delete;

  // A descriptor of its cgroup.procs: the child writes "0" to it between fork and exec, so it and all it
  // starts are in the cgroup from the first instruction of the runner on.
  int procsFd() const { return procs_; }
  // How many processes the kernel's OOM killer ended in it so far.
  std::uint64_t oomKills() const;
  // Its peak memory use in bytes, as the kernel counts it (page cache and shared memory included); 0 when
  // the kernel does not say.
  std::uint64_t peakBytes() const;
  // SIGKILL to every process in it, until none is left (or 5 s passed).
  void killAll();
  const std::filesystem::path& path() const { return path_; }
  int version() const { return version_; }

 private:
  RunnerCgroup(std::filesystem::path path, int version, int procs)
      : path_(std::move(path)), version_(version), procs_(procs) {}
  std::filesystem::path path_;
  int version_;
  int procs_;
};

}  // namespace ks::supervisor
