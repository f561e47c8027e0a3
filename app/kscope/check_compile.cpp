#include "app/kscope/check_compile.h"

#include <iostream>
#include <optional>

#include "app/kscope/candidate_repair.h"
#include "app/kscope/input_loading.h"
#include "core/model/task_lookup.h"
#include "core/nvcc/gpu_arch.h"
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

nlohmann::ordered_json compileJson(const runs::ProgramCompile& c) {
  const nvcc::BuildResult& r = c.result;
  Json entry = {{"ok", r.ok}, {"message", r.message}};
  if (!r.ok) entry["cause"] = repair::causeName(c.cause.cause);
  Json diagnostics = Json::array();
  for (const auto& d : r.diagnostics) diagnostics.push_back(Json::parse(nvcc::toJson(d).dump()));
  entry["diagnostics"] = diagnostics;
  Json kernels = Json::array();
  for (const auto& k : r.kernels) kernels.push_back(Json::parse(nvcc::toJson(k).dump()));
  entry["kernels"] = kernels;
  entry["compile_seconds"] = r.compileSeconds;
  return entry;
}

void printCompileDetails(std::ostream& out, const runs::ProgramCompile& c) {
  const nvcc::BuildResult& r = c.result;
  if (!r.ok)
    out << "  cause: " << repair::causeName(c.cause.cause) << ": " << repair::causeDescription(c.cause.cause)
        << "\n";
  for (const auto& d : r.diagnostics)
    // Errors wherever they are; warnings only in the program's own sources (not torch's headers).
    if (d.severity == nvcc::Severity::Error || (d.severity == nvcc::Severity::Warning && d.pythonLine))
      out << "  " << located(d) << ": " << nvcc::severityName(d.severity) << ": " << d.message << "\n";
  for (const auto& k : r.kernels)
    out << "  kernel " << k.name << " (" << k.arch << "): " << k.registers << " registers, " << k.sharedBytes
        << " B shared, " << k.stackBytes << " B stack, spills " << k.spillStores << "/" << k.spillLoads
        << "\n";
}

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
  const nvcc::TorchSetup torch = runs::torchForCompile(o.python);
  if (!torch.found()) {
    std::cerr << "kscope check --compile: error: " << torch.error << " (--python names one with torch)\n";
    return 2;
  }
  const std::string arch = nvcc::targetArch(o.arch);
  int compiled = 0, failed = 0;
  Json candidates = Json::array();
  for (Task& task : input.run.tasks) {
    if (!wanted.empty() && task.key() != wanted) continue;
    for (Candidate& c : task.candidates) {
      if (!c.code || c.language != CodeLanguage::Python) continue;
      std::optional<AppliedRepair> repaired;
      if (o.repair) repaired = repairCandidate(c, arch);
      if (!o.json)
        std::cerr << "kscope check --compile: " << task.key() << " " << c.id << " (" << arch << ")\n";
      const runs::ProgramCompile result = runs::compileProgram(*c.code, arch, torch);
      const nvcc::BuildResult& r = result.result;
      const bool nothing = r.ok && r.flags.empty();  // no embedded sources
      if (nothing) continue;
      r.ok ? ++compiled : ++failed;
      if (o.json) {
        Json entry = {{"task", task.key()}, {"candidate", c.id}, {"source_line", c.sourceLine}};
        entry.update(compileJson(result));
        if (repaired) entry["repair"] = repairJson(*repaired);
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
      printCompileDetails(std::cout, result);
    }
  }
  if (o.json) {
    const Json out = {{"file", o.file},       {"arch", arch},     {"repair", o.repair},
                      {"compiled", compiled}, {"failed", failed}, {"candidates", candidates}};
    std::cout << out.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    std::cout << "\n" << compiled << " program(s) compiled, " << failed << " failed (" << arch << ")\n";
  }
  return failed > 0 ? 1 : 0;
}

}  // namespace ks::cli
