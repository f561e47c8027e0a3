#include "core/engine/gpu_share.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

namespace ks::engine {
namespace {

int openLockFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) throw std::runtime_error("cannot open the GPU share lock " + path + ": " + std::strerror(errno));
  return fd;
}

// flock(2), retried when a signal interrupts it; returns false only for LOCK_NB on a held lock.
bool lockFile(int fd, int operation) {
  while (::flock(fd, operation) != 0) {
    if (errno == EINTR) continue;
    if (errno == EWOULDBLOCK && (operation & LOCK_NB)) return false;
    throw std::runtime_error(std::string("flock on the GPU share lock failed: ") + std::strerror(errno));
  }
  return true;
}

// Runs a blocking lock step and adds the seconds it took to `total`.
template <class F>
void timed(double& total, F&& step) {
  const auto start = std::chrono::steady_clock::now();
  step();
  total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

GpuShareLock* active = nullptr;
std::function<void()> activeSync;

}  // namespace

GpuShareLock::GpuShareLock(const std::string& path) {
  lock_ = openLockFile(path);
  try {
    turn_ = openLockFile(path + ".turn");
    takeShared();
  } catch (...) {
    ::close(lock_);
    if (turn_ >= 0) ::close(turn_);
    throw;
  }
}

GpuShareLock::~GpuShareLock() {
  if (!released_) ::flock(lock_, LOCK_UN);
  ::close(lock_);
  ::close(turn_);
}

void GpuShareLock::takeShared() {
  timed(sharedWait_, [&] {
    lockFile(turn_, LOCK_EX);  // behind any exclusive holder already waiting
    lockFile(turn_, LOCK_UN);
    lockFile(lock_, LOCK_SH);
  });
  exclusive_ = false;
}

void GpuShareLock::syncPoint() {
  if (exclusive_ || released_) return;
  if (lockFile(turn_, LOCK_EX | LOCK_NB)) {  // nobody waits for the lock alone
    lockFile(turn_, LOCK_UN);
    return;
  }
  lockFile(lock_, LOCK_UN);
  takeShared();
}

void GpuShareLock::becomeExclusive() {
  if (exclusive_) return;
  if (!released_) lockFile(lock_, LOCK_UN);
  released_ = false;
  timed(exclusiveWait_, [&] {
    lockFile(turn_, LOCK_EX);  // new shared holders now queue at the turnstile
    lockFile(lock_, LOCK_EX);  // until those holding it step aside
    lockFile(turn_, LOCK_UN);
  });
  exclusive_ = true;
}

void GpuShareLock::release() {
  if (exclusive_ || released_) return;
  lockFile(lock_, LOCK_UN);
  released_ = true;
}

void GpuShareLock::retake() {
  if (!released_) return;
  takeShared();
  released_ = false;
}

void GpuShareLock::becomeShared() {
  if (!exclusive_) return;
  lockFile(lock_, LOCK_UN);
  takeShared();
}

namespace gpu_share {

Scope::Scope(GpuShareLock* lock, std::function<void()> synchronizeDevice)
    : previous_(active), previousSync_(std::move(activeSync)) {
  active = lock;
  activeSync = std::move(synchronizeDevice);
}

Scope::~Scope() {
  active = previous_;
  activeSync = std::move(previousSync_);
}

void syncPoint() {
  if (active) active->syncPoint();
}

Exclusive::Exclusive() : lock_(active) {
  if (lock_) lock_->becomeExclusive();
}

Exclusive::~Exclusive() {
  if (!lock_) return;
  try {
    lock_->becomeShared();
  } catch (...) {  // a destructor cannot report it; the request ends and the lock file closes with it
  }
}

Idle::Idle() {
  if (!active || active->exclusive()) return;
  if (activeSync) activeSync();
  lock_ = active;
  lock_->release();
}

Idle::~Idle() {
  if (!lock_) return;
  try {
    lock_->retake();
  } catch (...) {  // as in ~Exclusive
  }
}

}  // namespace gpu_share
}  // namespace ks::engine
