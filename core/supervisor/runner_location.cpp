#include "core/supervisor/runner_location.h"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <vector>

namespace ks::supervisor {
namespace {

constexpr char kRunnerName[] = "kscope-runner";

bool isExecutable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

// The runner starts in a working folder of its own: a path relative to the caller's would not reach it.
std::filesystem::path absolutePath(const std::filesystem::path& p) {
  std::error_code ec;
  std::filesystem::path a = std::filesystem::absolute(p, ec);
  return ec ? p : a.lexically_normal();
}

}  // namespace

RunnerLocation findRunner(const std::filesystem::path& explicitPath) {
  if (!explicitPath.empty()) {
    if (isExecutable(explicitPath)) return {absolutePath(explicitPath), ""};
    return {{}, explicitPath.string() + " is not an executable file: pass the path of kscope-runner"};
  }
  if (const char* fromEnv = std::getenv("KSCOPE_RUNNER"); fromEnv && *fromEnv) {
    if (isExecutable(fromEnv)) return {absolutePath(fromEnv), ""};
    return {{}, std::string("KSCOPE_RUNNER=") + fromEnv + " is not an executable file"};
  }
  std::vector<std::filesystem::path> candidates;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(self.parent_path() / kRunnerName);
  if (const char* path = std::getenv("PATH")) {
    std::stringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty()) candidates.push_back(std::filesystem::path(dir) / kRunnerName);
  }
  for (const auto& c : candidates)
    if (isExecutable(c)) return {absolutePath(c), ""};
  return {{},
          "kscope-runner not found next to this program or on PATH: build it (KSCOPE_ENGINE=ON, needs "
          "libtorch), or name it with --runner PATH or KSCOPE_RUNNER"};
}

}  // namespace ks::supervisor
