#include "core/sandbox/descendants.h"

#include <dirent.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <thread>

namespace ks::sandbox {
namespace {

struct ProcInfo {
  pid_t parent = 0;
  char state = '?';
};

// Parent and state of every process in /proc ('Z' zombie, 'X' dead).
std::map<pid_t, ProcInfo> processTable() {
  std::map<pid_t, ProcInfo> table;
  DIR* proc = opendir("/proc");
  if (!proc) return table;
  while (dirent* entry = readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    const std::string path = std::string("/proc/") + entry->d_name + "/stat";
    std::FILE* f = std::fopen(path.c_str(), "re");
    if (!f) continue;  // gone already
    char buf[512];
    const std::size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    buf[n] = '\0';
    // "pid (comm) S ppid ...": comm may hold spaces and parentheses, so read from the last ')'.
    const std::string line(buf);
    const std::size_t close = line.rfind(')');
    if (close == std::string::npos || close + 4 > line.size()) continue;
    ProcInfo info;
    info.state = line[close + 2];
    info.parent = static_cast<pid_t>(std::strtol(line.c_str() + close + 4, nullptr, 10));
    table[static_cast<pid_t>(pid)] = info;
  }
  closedir(proc);
  return table;
}

std::vector<pid_t> below(pid_t root, const std::map<pid_t, ProcInfo>& table) {
  std::multimap<pid_t, pid_t> children;
  for (const auto& [pid, info] : table) children.emplace(info.parent, pid);
  std::vector<pid_t> out, frontier{root};
  while (!frontier.empty()) {
    const pid_t p = frontier.back();
    frontier.pop_back();
    auto [from, to] = children.equal_range(p);
    for (auto it = from; it != to; ++it) {
      if (it->second == root) continue;
      out.push_back(it->second);
      frontier.push_back(it->second);
    }
  }
  return out;
}

}  // namespace

bool becomeChildSubreaper() { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0; }

std::vector<pid_t> descendantsOf(pid_t root) { return below(root, processTable()); }

std::vector<pid_t> liveDescendantsOf(pid_t root) {
  const std::map<pid_t, ProcInfo> table = processTable();
  std::vector<pid_t> out;
  for (pid_t pid : below(root, table))
    if (const char state = table.at(pid).state; state != 'Z' && state != 'X') out.push_back(pid);
  return out;
}

namespace {

// Kills every descendant of `root` but `spared` until none is alive or the grace has passed; reaps those that
// are (or become) this process's children when `root` is this process.
KillReport killBelow(pid_t root, const std::set<pid_t>& spared, double graceSeconds) {
  const pid_t self = getpid();
  const bool reap = root == self;
  std::set<pid_t> signalled;
  KillReport report;
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(graceSeconds);
  for (;;) {
    const std::map<pid_t, ProcInfo> table = processTable();
    std::vector<pid_t> alive;
    for (pid_t pid : below(root, table)) {
      if (spared.count(pid)) continue;
      const ProcInfo& info = table.at(pid);
      if (info.state == 'Z' || info.state == 'X') {
        // Dead: ours to reap when it is our child; otherwise its (dying) parent's, or ours once re-parented.
        if (reap && info.parent == self) waitpid(pid, nullptr, WNOHANG);
        continue;
      }
      alive.push_back(pid);
    }
    if (alive.empty()) break;
    if (std::chrono::steady_clock::now() >= until) {
      report.alive = alive;
      break;
    }
    for (pid_t pid : alive) {
      if (kill(pid, SIGKILL) == 0 && signalled.insert(pid).second) ++report.killed;
      if (reap && table.at(pid).parent == self) waitpid(pid, nullptr, WNOHANG);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  // Reap what died as our child in the last pass.
  if (reap)
    for (pid_t pid : signalled) waitpid(pid, nullptr, WNOHANG);
  return report;
}

}  // namespace

KillReport killDescendants(const std::vector<pid_t>& except, double graceSeconds) {
  return killBelow(getpid(), std::set<pid_t>(except.begin(), except.end()), graceSeconds);
}

KillReport killDescendantsOf(pid_t root, double graceSeconds) {
  if (root <= 0) return {};
  return killBelow(root, {}, graceSeconds);
}

}  // namespace ks::sandbox
