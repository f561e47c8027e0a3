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

store::StoredRepair storedRepair(const AppliedRepair& r) {
  store::StoredRepair stored{r.originalCodeHash, {}, r.notRepaired};
  for (const repair::Repair& x : r.repairs)
    stored.repairs.push_back({repair::repairKindName(x.kind), x.what, x.lines});
  return stored;
}

nlohmann::ordered_json repairJson(const AppliedRepair& r) { return store::repairJson(storedRepair(r)); }

}  // namespace ks::cli
