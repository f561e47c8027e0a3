#pragma once
// A content-addressed cache of builds, shared by every process of a user (CLI, GUI, runner). An entry is
// the folder <root>/<key[0:2]>/<key>/ holding build.json (the BuildResult, log included) and the
// artifacts (a native build's shared library). Entries are published by an atomic rename, so concurrent
// builders of one key never see a half-written entry; the first to finish wins.
// Compile errors are cached too (they are as reproducible as successes); timeouts and cancels are not.
// Published entries are sealed (core/sandbox/build_seals.h, when the process opened a seal log: the runner):
// an entry whose build.json or library is not the sealed one is rejected and removed.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/nvcc/build_result.h"

namespace ks::nvcc {

struct CacheKeyInput {
  std::string kind;         // "python-sources" or "native-library": the build recipe
  std::string nvccVersion;  // the full `nvcc --version` output
  std::string arch;
  std::string salt;                                          // BuildOptions::cacheSalt
  std::vector<std::string> flags;                            // every flag, include directories too
  std::vector<std::pair<std::string, std::string>> sources;  // file name, text, in compile order
};

// $XDG_CACHE_HOME/kernelscope/build, else ~/.cache/kernelscope/build (the runner's default too).
std::filesystem::path defaultBuildCacheDir();

// sha256 over an unambiguous encoding of the input (lengths before contents).
std::string buildCacheKey(const CacheKeyInput& input);

class BuildCache {
 public:
  explicit BuildCache(std::filesystem::path root) : root_(std::move(root)) {}

  // The cached result (cacheHit set, library pointing into the entry), or nullopt when absent or unreadable.
  std::optional<BuildResult> find(const std::string& key) const;

  // Publishes `result` and copies `artifacts` into the entry. Returns "" or why it could not (the build
  // itself is still good: callers report this as a warning, not a failure).
  std::string store(const std::string& key, const BuildResult& result,
                    const std::vector<std::filesystem::path>& artifacts) const;

  std::filesystem::path entryDir(const std::string& key) const;

 private:
  std::filesystem::path root_;
};

}  // namespace ks::nvcc
