#pragma once
// The nvcc found on this machine: its path, its `nvcc --version` text (part of every build cache key) and
// a way to run it with a deadline.
#include <atomic>
#include <filesystem>
#include <string>
#include <variant>
#include <vector>

#include "core/nvcc/process_run.h"

namespace ks::nvcc {

class NvccToolchain {
 public:
  // `explicitPath` empty: findNvcc(). The version query runs once per nvcc path per process.
  // Returns the toolchain, or an error message naming what to fix.
  static std::variant<NvccToolchain, std::string> open(const std::filesystem::path& explicitPath = {});

  const std::filesystem::path& path() const { return path_; }
  const std::string& version() const { return version_; }  // the full `nvcc --version` output
  std::string release() const;                             // "13.0" (from "release 13.0, V13.0.88")

  // nvcc args... in `workingDirectory`, LC_ALL=C so host compiler messages are plain ASCII.
  ProcessOutput run(const std::vector<std::string>& args, const std::filesystem::path& workingDirectory,
                    double deadlineSeconds, const std::atomic<bool>* cancel) const;

 private:
  NvccToolchain(std::filesystem::path path, std::string version)
      : path_(std::move(path)), version_(std::move(version)) {}
  std::filesystem::path path_;
  std::string version_;
};

}  // namespace ks::nvcc
