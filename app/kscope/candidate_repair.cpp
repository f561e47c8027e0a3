#include "app/kscope/candidate_repair.h"

#include "core/hash/sha256.h"
#include "core/nvcc/gpu_arch.h"
#include "core/repair/build_cause.h"

namespace ks::cli {

std::string repairArch(const std::string& requested, const std::string& fallback) {
  if (!requested.empty()) return requested;
  const nvcc::GpuArch local = nvcc::detectGpuArch();
  return local.arch.empty() ? fallback : local.arch;
}

std::optional<AppliedRepair> repairCandidate(Candidate& candidate, const std::string& arch) {
  if (!candidate.code || candidate.language != CodeLanguage::Python) return std::nullopt;
  repair::ProgramRepair r =
      repair::repairProgram(*candidate.code, {.arch = arch, .fileName = candidate.id + ".py"});
  if (!r.changed()) return std::nullopt;
  AppliedRepair applied{hash::codeHash(*candidate.code), std::move(r.repairs), std::move(r.notRepaired),
                        std::move(r.diff)};
  candidate.code = std::move(r.program);
  return applied;
}

nlohmann::ordered_json repairJson(const AppliedRepair& r) {
  nlohmann::ordered_json repairs = nlohmann::ordered_json::array();
  for (const repair::Repair& x : r.repairs)
    repairs.push_back({{"kind", repair::repairKindName(x.kind)}, {"what", x.what}, {"lines", x.lines}});
  nlohmann::ordered_json j = {{"original_code_hash", r.originalCodeHash}, {"repairs", repairs}};
  if (!r.notRepaired.empty()) j["not_repaired"] = r.notRepaired;
  return j;
}

namespace {
std::string note(const std::string& name, const std::string& cause) {
  std::string s = "this number is the PyTorch fallback's: extension '" + name + "' did not build";
  if (cause.empty()) return s;
  const auto c = repair::causeFromName(cause);
  return s + " (" + cause + (c ? std::string(": ") + repair::causeDescription(*c) : "") + ")";
}
}  // namespace

std::string fallbackNote(const protocol::BuildReport& build) {
  const protocol::ExtensionBuild* failed = protocol::failedCandidateBuild(build);
  return failed ? note(failed->name, failed->cause) : "";
}

std::string fallbackNote(const nlohmann::ordered_json& endEvent) {
  if (endEvent.value("event", "") != "result" || !endEvent.contains("result")) return "";
  const auto& result = endEvent["result"];
  if (!result.contains("build") || !result["build"].contains("extensions")) return "";
  for (const auto& x : result["build"]["extensions"])
    if (!x.value("ok", true) && x.value("program", "") != "reference")
      return note(x.value("name", ""), x.value("cause", ""));
  return "";
}

}  // namespace ks::cli
