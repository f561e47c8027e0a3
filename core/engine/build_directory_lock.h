#pragma once
// One builder at a time in an extension's build directory, and no stale lock left by a killed one.
//
// torch.utils.cpp_extension guards a build directory with a file named `lock` (its FileBaton) and waits,
// polling, while that file exists. A runner killed mid-build (a deadline, a batch interrupted with Ctrl+C or
// `timeout`) leaves the file behind, and every later build of that directory waits forever: on the H100 a
// resumed `kscope batch --repair` of the good-kernels sat "building" until its time ran out. This lock is
// an flock(2) on `kscope.lock` beside it, which the kernel releases when its holder dies; whoever holds it is
// the only builder, so a `lock` file found then is stale and is removed.
#include <filesystem>

namespace ks::engine {

class BuildDirectoryLock {
 public:
  // Blocks until no other process builds in `directory`. Does nothing when the lock file cannot be opened.
  explicit BuildDirectoryLock(const std::filesystem::path& directory);
  ~BuildDirectoryLock();
  BuildDirectoryLock(const BuildDirectoryLock&) = delete;
  BuildDirectoryLock& operator=(const BuildDirectoryLock&) = delete;

  bool removedStaleTorchLock() const { return removedStale_; }

 private:
  int fd_ = -1;
  bool removedStale_ = false;
};

}  // namespace ks::engine
