#include "core/nvcc/native_build.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "core/nvcc/build_cache.h"
#include "core/nvcc/diagnostics_parser.h"
#include "core/nvcc/native_shim.h"
#include "core/nvcc/nvcc_toolchain.h"
#include "core/nvcc/source_files.h"
#include "core/model/seconds_since.h"

namespace ks::nvcc {
namespace {

constexpr char kShimFile[] = "kscope_shim.cu";
constexpr char kLibraryFile[] = "libkscope_native.so";

}  // namespace

BuildResult buildNativeLibrary(const NativeKernel& kernel, const BuildOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  BuildResult result;
  if (!isValidEntryName(kernel.entry)) {
    result.message = "the entry function '" + kernel.entry +
                     "' is not a C++ function name: name the function over torch::Tensor to call";
    return result;
  }
  if (kernel.arity < 0) {
    result.message = "internal error: negative arity for " + kernel.entry;
    return result;
  }
  std::set<std::string> taken = {kShimFile};
  const std::string kernelFile =
      sourceFileName(std::filesystem::path(kernel.fileName).stem().string(), ".cu", taken);
  if (options.scratchDir.empty()) {
    result.message = "internal error: no scratch folder given for the build";
    return result;
  }
  auto toolchain = NvccToolchain::open(options.nvcc);
  if (auto* error = std::get_if<std::string>(&toolchain)) {
    result.message = *error;
    return result;
  }
  const NvccToolchain& nvcc = std::get<NvccToolchain>(toolchain);

  result.flags = torchExtensionFlags();
  result.flags.insert(result.flags.end(), {"-shared", "-arch=" + options.arch, "-Xptxas", "-v"});
  for (const auto& d : options.defines) result.flags.push_back("-D" + d);
  for (const auto& dir : options.includeDirs) result.flags.push_back("-I" + dir.string());
  result.flags.insert(result.flags.end(), options.extraFlags.begin(), options.extraFlags.end());
  result.flags.insert(result.flags.end(), options.linkFlags.begin(), options.linkFlags.end());
  const std::string shim = nativeShimSource(kernelFile, kernel.entry, kernel.arity, kernel.convention);

  std::optional<BuildCache> cache;
  if (!options.cacheDir.empty()) {
    cache.emplace(options.cacheDir);
    result.cacheKey = buildCacheKey({"native-library",
                                     nvcc.version(),
                                     options.arch,
                                     options.cacheSalt,
                                     result.flags,
                                     {{kernelFile, kernel.code}, {kShimFile, shim}}});
    if (auto hit = cache->find(result.cacheKey)) {
      hit->seconds = secondsSince(start);
      return *hit;
    }
  }

  std::string error = writeTextFile(options.scratchDir / kernelFile, kernel.code);
  if (error.empty()) error = writeTextFile(options.scratchDir / kShimFile, shim);
  if (!error.empty()) {
    result.message = error;
    return result;
  }
  std::vector<std::string> args = result.flags;
  args.insert(args.end(), {kShimFile, "-o", kLibraryFile});
  ProcessOutput out = nvcc.run(args, options.scratchDir, options.deadlineSeconds, options.cancel);
  result.compileSeconds = out.seconds;
  result.log = out.output;
  if (!out.started || out.timedOut || out.cancelled || out.signal != 0) {
    result.message = "nvcc " + out.describeEnd() + " compiling " + kernel.fileName;
    result.seconds = secondsSince(start);
    return result;
  }
  result.diagnostics = parseDiagnostics(out.output);
  if (out.exitCode != 0 && result.errorCount() == 0)
    result.diagnostics.push_back({.file = kernelFile,
                                  .message = "nvcc " + out.describeEnd() + ":\n" + out.output,
                                  .tool = "nvcc-driver"});
  for (auto& d : result.diagnostics) {
    if (d.file.empty() && d.tool == "ptxas") d.file = kernelFile;
    if (d.file == kernelFile) d.file = kernel.fileName;
  }
  checkColumns(result.diagnostics, {{kernel.fileName, kernel.code}, {kShimFile, shim}});
  result.kernels = parsePtxasResources(out.output);
  result.ok = out.exitCode == 0;
  result.library = options.scratchDir / kLibraryFile;
  if (!result.ok) {
    result.library.clear();
    result.message = summarizeErrors(result.diagnostics);
  } else {
    result.message = "built " + kernel.fileName + " (entry " + kernel.entry + ", " +
                     std::to_string(result.kernels.size()) + " kernel" +
                     (result.kernels.size() == 1 ? "" : "s") + ")";
  }
  if (cache) {
    std::string why = cache->store(result.cacheKey, result,
                                   result.ok ? std::vector<std::filesystem::path>{result.library}
                                             : std::vector<std::filesystem::path>{});
    if (why.empty() && result.ok)
      result.library = cache->entryDir(result.cacheKey) / kLibraryFile;
    else if (!why.empty())
      result.diagnostics.push_back({.severity = Severity::Warning, .message = why, .tool = "cache"});
  }
  result.seconds = secondsSince(start);
  return result;
}

}  // namespace ks::nvcc
