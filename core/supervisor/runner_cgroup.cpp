#include "core/supervisor/runner_cgroup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace ks::supervisor {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> split(const std::string& s, char by) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(s);
  while (std::getline(in, item, by)) out.push_back(item);
  return out;
}

std::string readText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool writeText(const fs::path& p, const std::string& text, std::string* why = nullptr) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_CLOEXEC);
  const bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  if (!ok && why) *why = "cannot write " + p.string() + ": " + std::strerror(errno);
  if (fd >= 0) ::close(fd);
  return ok;
}

// The mount point of cgroup v2 (`controller` empty), or of the v1 hierarchy that has `controller`.
std::optional<fs::path> mountOf(const std::string& controller) {
  std::ifstream info("/proc/self/mountinfo");
  for (std::string line; std::getline(info, line);) {
    const auto dash = line.find(" - ");
    if (dash == std::string::npos) continue;
    const std::vector<std::string> before = split(line.substr(0, dash), ' ');
    const std::vector<std::string> after = split(line.substr(dash + 3), ' ');
    if (before.size() < 5 || after.size() < 3) continue;
    if (controller.empty() && after[0] == "cgroup2") return fs::path(before[4]);
    if (!controller.empty() && after[0] == "cgroup")
      for (const std::string& option : split(after[2], ','))
        if (option == controller) return fs::path(before[4]);
  }
  return std::nullopt;
}

// This process's cgroup in that hierarchy (/proc/self/cgroup: "0::/path" for v2, "4:memory:/path" for v1).
std::optional<std::string> ourCgroup(const std::string& controller) {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (controller.empty() && line.rfind("0::", 0) == 0) return path;
    if (!controller.empty())
      for (const std::string& c : split(controllers, ','))
        if (c == controller) return path;
  }
  return std::nullopt;
}

std::uint64_t field(const fs::path& file, const std::string& key) {
  std::istringstream in(readText(file));
  for (std::string k; in >> k;) {
    std::uint64_t v = 0;
    if (!(in >> v)) break;
    if (k == key) return v;
  }
  return 0;
}

std::string freshName() {
  static std::atomic<unsigned> counter{0};
  return "kscope-runner-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
}

}  // namespace

std::unique_ptr<RunnerCgroup> RunnerCgroup::create(std::uint64_t memoryBytes, std::string* why) {
  std::string reasons;
  auto note = [&](const std::string& r) { reasons += (reasons.empty() ? "" : "; ") + r; };
  auto make = [&](const fs::path& parent, int version, const char* limitFile) -> std::unique_ptr<RunnerCgroup> {
    const fs::path path = parent / freshName();
    if (::mkdir(path.c_str(), 0755) != 0) {
      note("cgroup v" + std::to_string(version) + ": cannot make " + path.string() + ": " + std::strerror(errno));
      return nullptr;
    }
    std::string failed;
    int procs = -1;
    if (writeText(path / limitFile, std::to_string(memoryBytes), &failed) &&
        (procs = ::open((path / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC)) >= 0) {
      if (version == 2) writeText(path / "memory.swap.max", "0");  // no way around the limit through swap
      return std::unique_ptr<RunnerCgroup>(new RunnerCgroup(path, version, procs));
    }
    note("cgroup v" + std::to_string(version) + ": " + (failed.empty() ? "cannot open its cgroup.procs" : failed));
    ::rmdir(path.c_str());
    return nullptr;
  };
  if (const std::optional<fs::path> mount = mountOf(""); mount)
    if (const std::optional<std::string> mine = ourCgroup(""); mine) {
      const fs::path parent = *mount / fs::path(*mine).relative_path();
      bool memory = false;
      for (const std::string& c : split(readText(parent / "cgroup.subtree_control"), ' '))
        memory = memory || c == "memory" || c == "memory\n";
      if (memory) {
        if (auto made = make(parent, 2, "memory.max")) return made;
      } else {
        note("cgroup v2: the memory controller is not enabled for the children of " + parent.string());
      }
    }
  const std::optional<fs::path> mount = mountOf("memory");
  const std::optional<std::string> mine = ourCgroup("memory");
  if (mount && mine) {
    if (auto made = make(*mount / fs::path(*mine).relative_path(), 1, "memory.limit_in_bytes")) return made;
  } else {
    note("no cgroup v1 memory hierarchy");
  }
  if (why) *why = reasons;
  return nullptr;
}

RunnerCgroup::~RunnerCgroup() {
  killAll();
  if (procs_ >= 0) ::close(procs_);
  // Dead processes leave it as they are reaped: try for a moment.
  for (int i = 0; i < 200 && ::rmdir(path_.c_str()) != 0 && errno == EBUSY; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

std::uint64_t RunnerCgroup::oomKills() const {
  return field(path_ / (version_ == 2 ? "memory.events" : "memory.oom_control"), "oom_kill");
}

std::uint64_t RunnerCgroup::peakBytes() const {
  std::istringstream in(readText(path_ / (version_ == 2 ? "memory.peak" : "memory.max_usage_in_bytes")));
  std::uint64_t v = 0;
  in >> v;
  return v;
}

void RunnerCgroup::killAll() {
  if (version_ == 2) writeText(path_ / "cgroup.kill", "1");
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;) {
    std::istringstream pids(readText(path_ / "cgroup.procs"));
    bool any = false;
    for (long pid; pids >> pid;) {
      // A zombie waits for its parent to reap it (ours: the runner), and killing it again does nothing.
      const std::string stat = readText("/proc/" + std::to_string(pid) + "/stat");
      const auto close = stat.rfind(')');
      if (close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'Z') continue;
      any = true;
      ::kill(static_cast<pid_t>(pid), SIGKILL);
    }
    if (!any || std::chrono::steady_clock::now() >= until) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace ks::supervisor
