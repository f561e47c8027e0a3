#include "core/runs/program_compile.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>

#include "core/nvcc/python_sources_build.h"
#include "core/pysource/embedded_sources.h"

namespace ks::runs {

bool buildsCudaExtension(const std::string& program) {
  for (const EmbeddedSource& source : extractEmbeddedSources(program))
    if (source.language == "cuda") return true;
  return false;
}

bool compilesInsteadOfRunning(std::string_view runnerDevice, const std::string& program, bool runAnyway) {
  return runnerDevice != "cuda" && !runAnyway && buildsCudaExtension(program);
}

nvcc::TorchSetup torchForCompile(const std::string& python) {
  nvcc::TorchSetup torch = nvcc::discoverTorchSetup(python);
  if (!torch.found() && python == "python3") torch = nvcc::discoverTorchSetup("/usr/bin/python3");
  return torch;
}

ProgramCompile compileProgram(const std::string& program, const std::string& arch, nvcc::TorchSetup torch,
                              const std::atomic<bool>* cancel) {
  static std::atomic<int> serial{0};
  ProgramCompile out;
  out.arch = arch;
  out.cause = {repair::BuildCause::None, "", ""};
  if (!torch.found()) {
    out.error = "no torch headers: " + torch.error;
    return out;
  }
  const auto scratch = std::filesystem::temp_directory_path() /
                       ("kscope-compile-" + std::to_string(::getpid()) + "-" + std::to_string(++serial));
  nvcc::addCudaHeaderShim(torch, scratch / "shim");
  std::error_code ec;
  std::filesystem::create_directories(scratch / "build", ec);
  nvcc::BuildOptions options = nvcc::compileCheckOptions(torch, arch, scratch / "build");
  options.cancel = cancel;
  out.result = nvcc::buildPythonSources(program, options);
  std::filesystem::remove_all(scratch, ec);
  if (!out.result.ok) {
    out.cause = repair::classifyBuildFailure(out.result.log, program);
    // A failure with no compiler output (nvcc missing, out of time) is said by the build's message.
    if (out.cause.cause == repair::BuildCause::None)
      out.cause = repair::classifyBuildFailure(out.result.message, program);
    if (out.cause.cause == repair::BuildCause::None) out.cause.cause = repair::BuildCause::Unknown;
  }
  return out;
}

ProgramCompile compileProgram(const std::string& program, const std::string& arch, const std::string& python,
                              const std::atomic<bool>* cancel) {
  return compileProgram(program, arch, torchForCompile(python), cancel);
}

std::string compileSummary(const nvcc::BuildResult& r, const std::string& error, const std::string& arch,
                           const std::string& program) {
  if (!error.empty()) return "nothing compiled for " + arch + ": " + error;
  if (!r.ok) {
    const std::size_t errors = r.errorCount();
    repair::BuildCause cause = repair::classifyBuildFailure(r.log, program).cause;
    if (cause == repair::BuildCause::None) cause = repair::classifyBuildFailure(r.message, program).cause;
    const std::string first = nvcc::summarizeErrors(r.diagnostics);
    return "compiled for " + arch + ": " +
           (errors == 1 ? std::string("1 error") : std::to_string(errors) + " errors") + " (" +
           repair::causeName(cause == repair::BuildCause::None ? repair::BuildCause::Unknown : cause) +
           "); " + (first.empty() ? r.message : first);
  }
  std::string kernels;
  for (const auto& k : r.kernels) {
    const std::string name = k.name.substr(0, k.name.find('('));
    const int spilled = k.spillStores + k.spillLoads;
    kernels += (kernels.empty() ? "" : "; ") + name + ": " + std::to_string(k.registers) + " registers, " +
               std::to_string(k.sharedBytes) + " B shared, " +
               (spilled > 0 ? std::to_string(spilled) + " B spilled" : std::string("no spills"));
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.0f", r.compileSeconds);
  return "compiled for " + arch + " without errors: " +
         (r.kernels.size() == 1 ? std::string("1 kernel") : std::to_string(r.kernels.size()) + " kernels") +
         " (" + (kernels.empty() ? std::string("no __global__ kernel") : kernels) + "), " + seconds + " s";
}

std::string compileSummary(const ProgramCompile& compiled, const std::string& program) {
  return compileSummary(compiled.result, compiled.error, compiled.arch, program);
}

}  // namespace ks::runs
