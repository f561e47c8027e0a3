#include "core/sandbox/resource_limits.h"

#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace ks::sandbox {

std::uint64_t tasksOfUser(uid_t uid) {
  std::uint64_t tasks = 0;
  DIR* proc = opendir("/proc");
  if (!proc) return 0;
  while (dirent* entry = readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    std::ifstream status(std::string("/proc/") + entry->d_name + "/status");
    long realUid = -1, threads = 0;
    for (std::string line; std::getline(status, line);) {
      if (line.rfind("Uid:", 0) == 0) realUid = std::strtol(line.c_str() + 4, nullptr, 10);
      if (line.rfind("Threads:", 0) == 0) threads = std::strtol(line.c_str() + 8, nullptr, 10);
    }
    if (realUid == static_cast<long>(uid)) tasks += static_cast<std::uint64_t>(threads > 0 ? threads : 1);
  }
  closedir(proc);
  return tasks;
}

ProcessCap capProcesses(std::uint64_t allowance) {
  ProcessCap cap;
  const std::uint64_t limit = tasksOfUser(getuid()) + allowance;
  const rlimit r{static_cast<rlim_t>(limit), static_cast<rlim_t>(limit)};
  if (setrlimit(RLIMIT_NPROC, &r) != 0) {
    cap.note = std::string("RLIMIT_NPROC not set: ") + std::strerror(errno);
    return cap;
  }
  cap.limit = limit;
  cap.binds = getuid() != 0;
  if (!cap.binds)
    cap.note = "RLIMIT_NPROC does not bind uid 0 (the kernel exempts root's processes): only the client's count of "
               "the runner's processes caps them";
  return cap;
}

std::string limitFileSize(std::uint64_t bytes) {
  std::signal(SIGXFSZ, SIG_IGN);
  const rlimit r{static_cast<rlim_t>(bytes), static_cast<rlim_t>(bytes)};
  if (setrlimit(RLIMIT_FSIZE, &r) != 0) return std::string("RLIMIT_FSIZE not set: ") + std::strerror(errno);
  return "";
}

}  // namespace ks::sandbox
