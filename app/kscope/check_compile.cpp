#include "app/kscope/check_compile.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/kscope/candidate_repair.h"
#include "app/kscope/input_loading.h"
#include "core/model/task_lookup.h"
#include "core/nvcc/gpu_arch.h"
#include "core/nvcc/python_sources_build.h"
#include "core/nvcc/torch_setup.h"
#include "core/repair/build_cause.h"

namespace ks::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string located(const nvcc::Diagnostic& d) {
  std::string s = d.file.empty() ? d.tool : d.file;
  if (d.line > 0) s += ":" + std::to_string(d.line);
  if (d.pythonLine) s += " (Python line " + std::to_string(*d.pythonLine) + ")";
  return s;
}

}  // namespace

int runCompileCheck(const CompileCheckOptions& o) {
  LoadedInput input = loadInput(o.file);
  if (!input.usable) return 2;
  std::string wanted;
  if (!o.task.empty()) {  // the one task-key rule of every command (core/model/task_lookup.h)
    const TaskLookup found = lookUpTask(input.run, o.task, o.file);
    if (!found.task) {
      std::cerr << "kscope check --compile: error: " << found.error << "\n";
      return 2;
    }
    wanted = found.task->key();
  }
  nvcc::TorchSetup torch = nvcc::discoverTorchSetup(o.python);
  if (!torch.found() && o.python == "python3") torch = nvcc::discoverTorchSetup("/usr/bin/python3");
  if (!torch.found()) {
    std::cerr << "kscope check --compile: error: " << torch.error << " (--python names one with torch)\n";
    return 2;
  }
  const std::string arch = nvcc::targetArch(o.arch);
  const auto scratch =
      std::filesystem::temp_directory_path() / ("kscope-compile-" + std::to_string(::getpid()));
  nvcc::addCudaHeaderShim(torch, scratch / "shim");
  int compiled = 0, failed = 0, index = 0;
  Json candidates = Json::array();
  for (Task& task : input.run.tasks) {
    if (!wanted.empty() && task.key() != wanted) continue;
    for (Candidate& c : task.candidates) {
      if (!c.code || c.language != CodeLanguage::Python) continue;
      std::optional<AppliedRepair> repaired;
      if (o.repair) repaired = repairCandidate(c, arch);
      const nvcc::BuildOptions b = nvcc::compileCheckOptions(torch, arch, scratch / std::to_string(index++));
      std::error_code ec;
      std::filesystem::create_directories(b.scratchDir, ec);
      if (!o.json)
        std::cerr << "kscope check --compile: " << task.key() << " " << c.id << " (" << arch << ")\n";
      const nvcc::BuildResult r = nvcc::buildPythonSources(*c.code, b);
      std::filesystem::remove_all(b.scratchDir, ec);
      const bool nothing = r.ok && r.flags.empty();  // no embedded sources
      if (nothing) continue;
      r.ok ? ++compiled : ++failed;
      const repair::BuildFailure cause = r.ok ? repair::BuildFailure{repair::BuildCause::None, "", ""}
                                              : repair::classifyBuildFailure(r.log, *c.code);
      if (o.json) {
        Json entry = {{"task", task.key()},
                      {"candidate", c.id},
                      {"source_line", c.sourceLine},
                      {"ok", r.ok},
                      {"message", r.message}};
        if (!r.ok) entry["cause"] = repair::causeName(cause.cause);
        if (repaired) entry["repair"] = repairJson(*repaired);
        Json diagnostics = Json::array();
        for (const auto& d : r.diagnostics) diagnostics.push_back(Json::parse(nvcc::toJson(d).dump()));
        entry["diagnostics"] = diagnostics;
        Json kernels = Json::array();
        for (const auto& k : r.kernels) kernels.push_back(Json::parse(nvcc::toJson(k).dump()));
        entry["kernels"] = kernels;
        entry["compile_seconds"] = r.compileSeconds;
        candidates.push_back(std::move(entry));
        continue;
      }
      std::cout << task.key() << " " << c.id << " (" << o.file
                << (c.sourceLine ? ":" + std::to_string(c.sourceLine) : "")
                << "): " << (r.ok ? "compiled" : "FAILED") << ", " << r.kernels.size() << " kernel"
                << (r.kernels.size() == 1 ? "" : "s") << ", " << static_cast<int>(r.compileSeconds + 0.5)
                << " s\n";
      if (repaired)
        for (const repair::Repair& x : repaired->repairs)
          std::cout << "  repaired: " << repair::describeRepairs({x});
      if (!r.ok)
        std::cout << "  cause: " << repair::causeName(cause.cause) << ": "
                  << repair::causeDescription(cause.cause) << "\n";
      for (const auto& d : r.diagnostics)
        // Errors wherever they are; warnings only in the program's own sources (not torch's headers).
        if (d.severity == nvcc::Severity::Error || (d.severity == nvcc::Severity::Warning && d.pythonLine))
          std::cout << "  " << located(d) << ": " << nvcc::severityName(d.severity) << ": " << d.message
                    << "\n";
      for (const auto& k : r.kernels)
        std::cout << "  kernel " << k.name << " (" << k.arch << "): " << k.registers << " registers, "
                  << k.sharedBytes << " B shared, " << k.stackBytes << " B stack, spills " << k.spillStores
                  << "/" << k.spillLoads << "\n";
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(scratch, ec);
  if (o.json) {
    const Json out = {{"file", o.file},       {"arch", arch},     {"repair", o.repair},
                      {"compiled", compiled}, {"failed", failed}, {"candidates", candidates}};
    std::cout << out.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    std::cout << "\n" << compiled << " program(s) compiled, " << failed << " failed (" << arch << ")\n";
  }
  return failed > 0 ? 1 : compiled > 0 ? 0 : 0;
}

}  // namespace ks::cli
