#include "core/engine/cpu_pin.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "core/engine/thread_cpu.h"

namespace ks::engine {
namespace {

pid_t currentTid() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

}  // namespace

CpuPin::CpuPin(CpuPinScope scope) {
  if (scope == CpuPinScope::None) return;
  const int cpu = ::sched_getcpu();
  if (cpu < 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  const pid_t self = currentTid();
  std::vector<pid_t> tids = scope == CpuPinScope::Process ? processThreadIds() : std::vector<pid_t>{};
  if (tids.empty()) tids.push_back(self);
  for (pid_t tid : tids) {
    Saved s{tid, {}};
    if (::sched_getaffinity(tid, sizeof s.before, &s.before) != 0) continue;
    if (::sched_setaffinity(tid, sizeof one, &one) != 0) continue;
    saved_.push_back(s);
    if (tid == self) cpu_ = cpu;
  }
}

CpuPin::~CpuPin() {
  // A thread that ended meanwhile answers ESRCH: nothing to restore.
  for (const Saved& s : saved_) ::sched_setaffinity(s.tid, sizeof s.before, &s.before);
}

}  // namespace ks::engine
