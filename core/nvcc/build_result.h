#pragma once
// The outcome of a build: diagnostics, per-kernel resources, time, cache use and, for native kernels, the
// shared library to dlopen. Its JSON form is the `build` object of the runner protocol's result.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/nvcc/diagnostic.h"
#include "core/nvcc/kernel_resources.h"

namespace ks::nvcc {

struct BuildResult {
  bool ok = false;
  // For a person: what failed and where ("cuda_source.cu:12 (Python line 48): error: …"), or what was
  // built. Set on success too.
  std::string message;
  std::vector<Diagnostic> diagnostics;
  std::vector<KernelResources> kernels;
  std::vector<std::string> flags;  // nvcc flags common to every file (without file names)
  double seconds = 0;              // wall time of this call (near 0 on a cache hit)
  double compileSeconds = 0;  // nvcc time of the build that produced the output (the cached one on a hit)
  bool cacheHit = false;
  std::string cacheKey;           // sha256 hex; empty when no cache was used
  std::filesystem::path library;  // native builds: the shared library (inside the cache when one is used)
  std::string log;                // the compilers' output, as printed

  std::size_t errorCount() const;
};

// "cuda_source.cu:12:5 (Python line 48): error: …", "3 errors; first: …"; empty when there are none.
std::string summarizeErrors(const std::vector<Diagnostic>& diagnostics);

nlohmann::json toJson(const Diagnostic& d);
nlohmann::json toJson(const KernelResources& k);
// {"ok", "message", "seconds", "compile_seconds", "cache_hit", "cache_key", "flags", "kernels",
//  "diagnostics", "library"} — the log is left out (it can be megabytes); callers add it when they want it.
nlohmann::json toJson(const BuildResult& r);

Diagnostic diagnosticFromJson(const nlohmann::json& j);
KernelResources kernelResourcesFromJson(const nlohmann::json& j);

}  // namespace ks::nvcc
