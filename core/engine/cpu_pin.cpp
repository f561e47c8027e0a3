#include "core/engine/cpu_pin.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>

namespace ks::engine {
namespace {

pid_t currentTid() { return static_cast<pid_t>(::syscall(SYS_gettid)); }

std::vector<pid_t> processThreads() {
  std::vector<pid_t> tids;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos)
      tids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return tids;
}

}  // namespace

std::optional<CpuPinScope> cpuPinScopeFrom(std::string_view name) {
  if (name == "none") return CpuPinScope::None;
  if (name == "thread") return CpuPinScope::Thread;
  if (name == "process") return CpuPinScope::Process;
  return std::nullopt;
}

const char* cpuPinScopeName(CpuPinScope scope) {
  switch (scope) {
    case CpuPinScope::None:
      return "none";
    case CpuPinScope::Thread:
      return "thread";
    case CpuPinScope::Process:
      return "process";
  }
  return "none";
}

CpuPin::CpuPin(CpuPinScope scope) {
  if (scope == CpuPinScope::None) return;
  const int cpu = ::sched_getcpu();
  if (cpu < 0) return;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  const pid_t self = currentTid();
  std::vector<pid_t> tids = scope == CpuPinScope::Process ? processThreads() : std::vector<pid_t>{};
  if (tids.empty()) tids.push_back(self);
  for (pid_t tid : tids) {
    cpu_set_t before;
    CPU_ZERO(&before);
    if (::sched_getaffinity(tid, sizeof before, &before) != 0) continue;
    if (::sched_setaffinity(tid, sizeof one, &one) != 0) continue;
    Saved s{tid, std::vector<unsigned char>(sizeof before)};
    std::memcpy(s.mask.data(), &before, sizeof before);
    saved_.push_back(std::move(s));
    if (tid == self) cpu_ = cpu;
  }
}

CpuPin::~CpuPin() {
  for (const Saved& s : saved_) {
    cpu_set_t before;
    std::memcpy(&before, s.mask.data(), sizeof before);
    ::sched_setaffinity(s.tid, sizeof before,
                        &before);  // a thread that ended meanwhile: ESRCH, nothing to do
  }
}

}  // namespace ks::engine
