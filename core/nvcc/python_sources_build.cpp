#include "core/nvcc/python_sources_build.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "core/nvcc/build_cache.h"
#include "core/nvcc/diagnostics_parser.h"
#include "core/nvcc/nvcc_toolchain.h"
#include "core/nvcc/source_files.h"
#include "core/pysource/embedded_sources.h"
#include "core/model/seconds_since.h"

namespace ks::nvcc {
namespace {

// What load_inline prepends to the sources it is given (torch/utils/cpp_extension.py), as pre-included
// headers so that the compiled file's line numbers are the source's.
constexpr char kCudaPrelude[] = "kscope_prelude_cuda.h";
constexpr char kCppPrelude[] = "kscope_prelude_cpp.h";
constexpr char kCudaPreludeText[] =
    "#include <torch/types.h>\n#include <cuda.h>\n#include <cuda_runtime.h>\n";
constexpr char kCppPreludeText[] = "#include <torch/extension.h>\n";

struct SourceFile {
  const EmbeddedSource* source;
  std::string file;  // name in the scratch folder
  bool cuda;
};

std::vector<std::string> commonFlags(const BuildOptions& o) {
  std::vector<std::string> flags = torchExtensionFlags();
  flags.push_back("-arch=" + o.arch);
  for (const auto& d : o.defines) flags.push_back("-D" + d);
  for (const auto& dir : o.includeDirs) flags.push_back("-I" + dir.string());
  flags.insert(flags.end(), o.extraFlags.begin(), o.extraFlags.end());
  return flags;
}

}  // namespace

BuildResult buildPythonSources(const std::string& pythonProgram, const BuildOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  BuildResult result;
  const std::vector<EmbeddedSource> sources = extractEmbeddedSources(pythonProgram);
  if (sources.empty()) {
    result.ok = true;
    result.message = "the program embeds no CUDA or C++ sources: nothing to compile";
    return result;
  }
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

  std::set<std::string> taken;
  std::vector<SourceFile> files;
  for (const auto& s : sources) {
    bool cuda = s.language != "cpp";
    files.push_back({&s, sourceFileName(s.name, cuda ? ".cu" : ".cpp", taken), cuda});
  }
  result.flags = commonFlags(options);

  CacheKeyInput keyInput{"python-sources", nvcc.version(), options.arch, options.cacheSalt, result.flags, {}};
  for (const auto& f : files) keyInput.sources.emplace_back(f.file, f.source->text);
  std::optional<BuildCache> cache;
  if (!options.cacheDir.empty()) {
    cache.emplace(options.cacheDir);
    result.cacheKey = buildCacheKey(keyInput);
    if (auto hit = cache->find(result.cacheKey)) {
      hit->seconds = secondsSince(start);
      return *hit;
    }
  }

  std::string error = writeTextFile(options.scratchDir / kCudaPrelude, kCudaPreludeText);
  if (error.empty()) error = writeTextFile(options.scratchDir / kCppPrelude, kCppPreludeText);
  for (const auto& f : files)
    if (error.empty()) error = writeTextFile(options.scratchDir / f.file, f.source->text);
  if (!error.empty()) {
    result.message = error;
    return result;
  }

  std::map<std::string, const EmbeddedSource*> byFile;
  std::map<std::string, std::string> texts;
  bool compiled = true;
  for (const auto& f : files) {
    byFile[f.file] = f.source;
    texts[f.file] = f.source->text;
    std::vector<std::string> args = result.flags;
    args.insert(args.end(),
                {"-include", f.cuda ? kCudaPrelude : kCppPrelude, "-c", f.file, "-o", f.file + ".o"});
    if (f.cuda) args.insert(args.end(), {"-Xptxas", "-v"});
    ProcessOutput out = nvcc.run(args, options.scratchDir, options.deadlineSeconds, options.cancel);
    result.compileSeconds += out.seconds;
    result.log += "$ nvcc " + f.file + "\n" + out.output;
    if (!out.started || out.timedOut || out.cancelled || out.signal != 0) {
      result.message = "nvcc " + out.describeEnd() + " compiling " + f.file + " (" + f.source->name +
                       ", Python line " + std::to_string(f.source->firstLine) + ")";
      result.seconds = secondsSince(start);
      return result;  // not reproducible: neither reported as compile errors nor cached
    }
    std::vector<Diagnostic> diagnostics = parseDiagnostics(out.output);
    if (out.exitCode != 0 && std::none_of(diagnostics.begin(), diagnostics.end(),
                                          [](const Diagnostic& d) { return d.severity == Severity::Error; }))
      diagnostics.push_back({.file = f.file,
                             .message = "nvcc " + out.describeEnd() + ":\n" + out.output,
                             .tool = "nvcc-driver"});
    for (auto& d : diagnostics)
      if (d.file.empty() && d.tool == "ptxas") d.file = f.file;
    result.diagnostics.insert(result.diagnostics.end(), diagnostics.begin(), diagnostics.end());
    for (auto& k : parsePtxasResources(out.output)) result.kernels.push_back(std::move(k));
    compiled = compiled && out.exitCode == 0;
  }
  for (auto& d : result.diagnostics) {
    auto it = byFile.find(d.file);
    if (it != byFile.end() && d.line > 0) d.pythonLine = it->second->pythonLine(d.line);
  }
  checkColumns(result.diagnostics, texts);

  result.ok = compiled;
  result.message = compiled
                       ? "compiled " + std::to_string(files.size()) + " embedded source" +
                             (files.size() == 1 ? "" : "s") + ", " + std::to_string(result.kernels.size()) +
                             " kernel" + (result.kernels.size() == 1 ? "" : "s")
                       : summarizeErrors(result.diagnostics);
  if (cache) {
    std::string why = cache->store(result.cacheKey, result, {});
    if (!why.empty())
      result.diagnostics.push_back({.severity = Severity::Warning, .message = why, .tool = "cache"});
  }
  result.seconds = secondsSince(start);
  return result;
}

}  // namespace ks::nvcc
