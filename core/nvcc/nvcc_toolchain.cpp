#include "core/nvcc/nvcc_toolchain.h"

#include <map>
#include <mutex>
#include <regex>

#include "core/nvcc/nvcc_locator.h"

namespace ks::nvcc {

std::variant<NvccToolchain, std::string> NvccToolchain::open(const std::filesystem::path& explicitPath) {
  std::filesystem::path path = explicitPath;
  if (path.empty()) {
    NvccLocation found = findNvcc();
    if (!found.found()) return found.error;
    path = found.path;
  }
  static std::mutex mutex;
  static std::map<std::filesystem::path, std::string> versions;
  std::lock_guard lock(mutex);
  if (auto it = versions.find(path); it != versions.end()) return NvccToolchain(path, it->second);
  ProcessOutput out = runProcess({.argv = {path.string(), "--version"}, .deadlineSeconds = 60});
  if (!out.succeeded())
    return "cannot run " + path.string() + " --version: " + out.describeEnd() +
           (out.output.empty() ? "" : "\n" + out.output);
  versions[path] = out.output;
  return NvccToolchain(path, out.output);
}

std::string NvccToolchain::release() const {
  static const std::regex kRelease(R"(release (\d+\.\d+))");
  std::smatch m;
  return std::regex_search(version_, m, kRelease) ? m[1].str() : "";
}

ProcessOutput NvccToolchain::run(const std::vector<std::string>& args,
                                 const std::filesystem::path& workingDirectory, double deadlineSeconds,
                                 const std::atomic<bool>* cancel) const {
  ProcessSpec spec;
  spec.argv.push_back(path_.string());
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.workingDirectory = workingDirectory;
  spec.environment = {{"LC_ALL", "C"}};
  spec.deadlineSeconds = deadlineSeconds;
  spec.cancel = cancel;
  return runProcess(spec);
}

}  // namespace ks::nvcc
