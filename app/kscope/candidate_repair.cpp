#include "app/kscope/candidate_repair.h"

#include "core/hash/sha256.h"

namespace ks::cli {

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

}  // namespace ks::cli
