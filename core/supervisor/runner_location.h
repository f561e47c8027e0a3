#pragma once
// Finding kscope-runner: an explicit path, then $KSCOPE_RUNNER, then the folder of the running executable
// (the build and install put kscope, kernelscope and kscope-runner side by side), then $PATH. The path found
// is absolute: the runner is started in a working folder of its own.
#include <filesystem>
#include <string>

namespace ks::supervisor {

struct RunnerLocation {
  std::filesystem::path path;  // empty when not found
  std::string error;           // where it looked and what to do, when not found
  bool found() const { return !path.empty(); }
};

RunnerLocation findRunner(const std::filesystem::path& explicitPath = {});

}  // namespace ks::supervisor
