#include "core/nvcc/build_result.h"

#include <algorithm>

namespace ks::nvcc {

std::size_t BuildResult::errorCount() const {
  return std::size_t(std::count_if(diagnostics.begin(), diagnostics.end(),
                                   [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

std::string summarizeErrors(const std::vector<Diagnostic>& diagnostics) {
  auto first = std::find_if(diagnostics.begin(), diagnostics.end(),
                            [](const Diagnostic& d) { return d.severity == Severity::Error; });
  if (first == diagnostics.end()) return "";
  auto n = std::count_if(diagnostics.begin(), diagnostics.end(),
                         [](const Diagnostic& d) { return d.severity == Severity::Error; });
  std::string head = first->toString();
  if (auto nl = head.find('\n'); nl != std::string::npos) head.resize(nl);
  return n == 1 ? head : std::to_string(n) + " errors; first: " + head;
}

nlohmann::json toJson(const Diagnostic& d) {
  nlohmann::json j = {{"file", d.file},       {"line", d.line},
                      {"column", d.column},   {"severity", severityName(d.severity)},
                      {"message", d.message}, {"tool", d.tool}};
  if (!d.excerpt.empty()) j["excerpt"] = d.excerpt;
  if (d.pythonLine) j["python_line"] = *d.pythonLine;
  return j;
}

nlohmann::json toJson(const KernelResources& k) {
  return {{"name", k.name},
          {"mangled_name", k.mangledName},
          {"arch", k.arch},
          {"registers", k.registers},
          {"barriers", k.barriers},
          {"shared_bytes", k.sharedBytes},
          {"constant_bytes", k.constantBytes},
          {"stack_bytes", k.stackBytes},
          {"spill_stores", k.spillStores},
          {"spill_loads", k.spillLoads}};
}

nlohmann::json toJson(const BuildResult& r) {
  nlohmann::json kernels = nlohmann::json::array(), diagnostics = nlohmann::json::array();
  for (const auto& k : r.kernels) kernels.push_back(toJson(k));
  for (const auto& d : r.diagnostics) diagnostics.push_back(toJson(d));
  nlohmann::json j = {{"ok", r.ok},
                      {"message", r.message},
                      {"seconds", r.seconds},
                      {"compile_seconds", r.compileSeconds},
                      {"cache_hit", r.cacheHit},
                      {"flags", r.flags},
                      {"kernels", kernels},
                      {"diagnostics", diagnostics}};
  if (!r.cacheKey.empty()) j["cache_key"] = r.cacheKey;
  if (!r.library.empty()) j["library"] = r.library.string();
  return j;
}

Diagnostic diagnosticFromJson(const nlohmann::json& j) {
  Diagnostic d;
  d.file = j.value("file", "");
  d.line = j.value("line", 0);
  d.column = j.value("column", 0);
  const std::string severity = j.value("severity", "error");
  d.severity = severity == "warning"  ? Severity::Warning
               : severity == "note"   ? Severity::Note
               : severity == "remark" ? Severity::Remark
                                      : Severity::Error;
  d.message = j.value("message", "");
  d.tool = j.value("tool", "");
  d.excerpt = j.value("excerpt", "");
  if (j.contains("python_line") && j["python_line"].is_number_integer())
    d.pythonLine = j["python_line"].get<int>();
  return d;
}

KernelResources kernelResourcesFromJson(const nlohmann::json& j) {
  KernelResources k;
  k.name = j.value("name", "");
  k.mangledName = j.value("mangled_name", "");
  k.arch = j.value("arch", "");
  k.registers = j.value("registers", 0);
  k.barriers = j.value("barriers", 0);
  k.sharedBytes = j.value("shared_bytes", 0);
  k.constantBytes = j.value("constant_bytes", 0);
  k.stackBytes = j.value("stack_bytes", 0);
  k.spillStores = j.value("spill_stores", 0);
  k.spillLoads = j.value("spill_loads", 0);
  return k;
}

}  // namespace ks::nvcc
