#pragma once
// Records every torch.utils.cpp_extension.load_inline / load call a request's programs make. The two
// functions are wrapped once per process; while a request runs, each call:
//   - builds in <cache>/<name>-<hash of its arguments, torch and CUDA versions, toolkit, GPU architecture>,
//     unless the program names a build_directory, so two programs' same-named extensions never overwrite
//     each other; a directory whose build completed before is imported without calling torch (torch 1.x
//     rewrites the sources and so recompiles every time), so an unchanged extension is never rebuilt; a
//     directory whose sources the compiler rejected raises that same error again without compiling;
//   - builds as in a fresh process (torch's in-process memory of the name is dropped first: it would skip
//     the build of sources it saw before, even after that build failed), in a fresh staging folder whose
//     finished build is then renamed into the key's folder and sealed (core/sandbox/build_seals.h): a
//     cached library or failure whose content is not the sealed one (planted by a candidate) is rebuilt;
//   - reports phase `build` (its own deadline) and hands the interrupted phase back afterwards;
//   - records name, flags, seconds, cache_hit (imported from the cache, or no object file or library was
//     written during the call) and,
//     when it raises, the compiler's diagnostics mapped to the lines of the calling Python program.
// A failed build the program catches (and falls back from) stays on record: that is evidence too.
#include <pybind11/pybind11.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/engine/event_sink.h"
#include "core/engine/python_error.h"
#include "core/protocol/evaluate_result.h"

namespace ks::engine {

// Records while it lives (one request at a time); also sets TORCH_EXTENSIONS_DIR to `cacheRoot`.
class ExtensionBuilds {
 public:
  ExtensionBuilds(PhaseReporter& reporter, const std::filesystem::path& cacheRoot);
  ~ExtensionBuilds();
  ExtensionBuilds(const ExtensionBuilds&) = delete;
  ExtensionBuilds& operator=(const ExtensionBuilds&) = delete;

  // The program whose calls follow (its text maps compiler lines back to Python lines).
  void setProgram(const std::string& role, const std::string& programText);
  const std::vector<protocol::ExtensionBuild>& builds() const;

  // The failed build that `error` is (or was raised from), or nullptr.
  const protocol::ExtensionBuild* failedBuildFor(pybind11::error_already_set& error) const;

  // `error` as the protocol reports it: a `build` error with that build's diagnostics when it comes from a
  // failed build, else errorFromPython(error, kind, programs).
  protocol::ErrorInfo errorFrom(pybind11::error_already_set& error, protocol::ErrorKind kind,
                                const std::vector<ProgramFile>& programs) const;
};

}  // namespace ks::engine
