#include "core/engine/build_directory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

namespace ks::engine {

BuildDirectoryLock::BuildDirectoryLock(const std::filesystem::path& directory) {
  fd_ = ::open((directory / "kscope.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) return;
  while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
  }
  std::error_code ec;
  if (std::filesystem::remove(directory / "lock", ec)) {
    removedStale_ = true;
    std::fprintf(stderr, "kscope-runner: removed a stale torch build lock in %s (its builder was killed)\n",
                 directory.c_str());
  }
}

BuildDirectoryLock::~BuildDirectoryLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

}  // namespace ks::engine
