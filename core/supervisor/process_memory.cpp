#include "core/supervisor/process_memory.h"

#include <fstream>
#include <sstream>
#include <string>

namespace ks::supervisor {

std::optional<std::uint64_t> residentBytes(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) != 0) continue;
    std::istringstream fields(line.substr(6));
    std::uint64_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return std::nullopt;
}

std::optional<pid_t> parentOf(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("PPid:", 0) != 0) continue;
    std::istringstream fields(line.substr(5));
    long parent = 0;
    if (fields >> parent) return static_cast<pid_t>(parent);
  }
  return std::nullopt;
}

}  // namespace ks::supervisor
