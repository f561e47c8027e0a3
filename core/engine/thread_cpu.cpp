#include "core/engine/thread_cpu.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>

namespace ks::engine {
namespace {

// Fields 14 and 15 of a stat line (utime, stime, in clock ticks), read after the last ')' since the command
// name may hold spaces and parentheses.
bool readTicks(pid_t tid, unsigned long long& ticks) {
  const std::string path = "/proc/self/task/" + std::to_string(tid) + "/stat";
  std::FILE* f = std::fopen(path.c_str(), "re");
  if (!f) return false;
  char line[1024];
  const std::size_t n = std::fread(line, 1, sizeof line - 1, f);
  std::fclose(f);
  line[n] = '\0';
  const char* p = std::strrchr(line, ')');
  if (!p) return false;
  ++p;
  // After ')': field 3 (state) is the first; utime is field 14, stime field 15.
  for (int field = 3; field < 14; ++field) {
    p = std::strchr(p + 1, ' ');
    if (!p) return false;
  }
  char* end = nullptr;
  const unsigned long long utime = std::strtoull(p + 1, &end, 10);
  if (end == p + 1) return false;
  const unsigned long long stime = std::strtoull(end, &end, 10);
  ticks = utime + stime;
  return true;
}

}  // namespace

std::vector<pid_t> processThreadIds() {
  std::vector<pid_t> tids;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos)
      tids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return tids;
}

ThreadTimes threadCpuTimes() {
  ThreadTimes out;
  static const double msPerTick = 1000.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
  for (pid_t tid : processThreadIds()) {
    unsigned long long ticks = 0;
    if (readTicks(tid, ticks)) out[tid] = static_cast<double>(ticks) * msPerTick;
  }
  return out;
}

std::set<pid_t> threadIds(const ThreadTimes& times) {
  std::set<pid_t> ids;
  for (const auto& [tid, ms] : times) ids.insert(tid);
  return ids;
}

ForeignCpu foreignCpuBetween(const ThreadTimes& before, const ThreadTimes& after, const std::set<pid_t>& baseline) {
  ForeignCpu out;
  for (const auto& [tid, ms] : after) {
    if (baseline.count(tid)) continue;
    const auto was = before.find(tid);
    const double used = ms - (was == before.end() ? 0.0 : was->second);
    if (used <= 0) continue;
    out.ms += used;
    ++out.threads;
  }
  return out;
}

}  // namespace ks::engine
