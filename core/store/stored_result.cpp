#include "core/store/stored_result.h"

#include <cmath>

#include "core/json/json_fields.h"
#include "core/protocol/json_codec.h"

namespace ks::store {

StoredResult fromEvaluateEnd(protocol::EvaluateEnd end) {
  StoredResult r;
  r.requestId = std::move(end.id);
  if (auto* result = std::get_if<protocol::EvaluateResult>(&end.outcome)) {
    r.codeHash = result->codeHash;
    r.device = result->environment.deviceName.empty() ? result->device : result->environment.deviceName;
    r.passed = result->correctness.passed;
    r.outcome = result->correctness.passed ? "correct" : "incorrect";
    // A speedup that could not be taken is written as null and read back as NaN: not timed.
    if (result->timing && std::isfinite(result->timing->speedup)) r.speedup = result->timing->speedup;
    r.result = std::move(*result);
  } else {
    auto& error = std::get<protocol::ErrorInfo>(end.outcome);
    r.outcome = "error";
    r.errorKind = protocol::errorKindName(error.kind);
    r.error = std::move(error);
  }
  return r;
}

StoredResult fromEndEvent(const protocol::EndEvent& end) {
  protocol::Decoded<protocol::EvaluateEnd> decoded = protocol::decodeEvaluateEnd(end);
  if (decoded.value) return fromEvaluateEnd(std::move(*decoded.value));
  StoredResult r;
  r.unreadable = std::move(decoded.error);
  return r;
}

StoredResult fromResultJson(const nlohmann::ordered_json& resultJson) {
  protocol::Decoded<protocol::EvaluateEnd> decoded = protocol::decodeEvaluateEnd(resultJson);
  StoredResult r;
  if (decoded.value)
    r = fromEvaluateEnd(std::move(*decoded.value));
  else
    r.unreadable = std::move(decoded.error);
  if (!resultJson.is_object()) return r;
  if (auto repair = resultJson.find("repair"); repair != resultJson.end()) r.repair = repairFromJson(*repair);
  if (auto gpu = resultJson.find("gpu"); gpu != resultJson.end() && gpu->is_string())
    r.gpu = gpu->get<std::string>();
  return r;
}

nlohmann::ordered_json toResultJson(const StoredResult& row) {
  nlohmann::ordered_json j = row.result  ? protocol::endEventJson(row.requestId, *row.result)
                             : row.error ? protocol::endEventJson(row.requestId, *row.error)
                                         : nlohmann::ordered_json();
  if (j.is_null()) return j;
  if (row.repair) j["repair"] = repairJson(*row.repair);
  if (!row.gpu.empty()) j["gpu"] = row.gpu;
  return j;
}

nlohmann::ordered_json repairJson(const StoredRepair& repair) {
  nlohmann::ordered_json repairs = nlohmann::ordered_json::array();
  for (const StoredRepair::Change& c : repair.repairs)
    repairs.push_back({{"kind", c.kind}, {"what", c.what}, {"lines", c.lines}});
  nlohmann::ordered_json j = {{"original_code_hash", repair.originalCodeHash}, {"repairs", repairs}};
  if (!repair.notRepaired.empty()) j["not_repaired"] = repair.notRepaired;
  return j;
}

std::optional<StoredRepair> repairFromJson(const nlohmann::ordered_json& repair) {
  if (!repair.is_object()) return std::nullopt;
  try {
    const json::Fields f(repair, "repair");
    StoredRepair r;
    r.originalCodeHash = f.strOr("original_code_hash", "");
    for (const json::Fields& c : f.objects("repairs")) {
      StoredRepair::Change change{c.strOr("kind", ""), c.strOr("what", ""), {}};
      for (std::int64_t line : c.int64s("lines")) change.lines.push_back(static_cast<int>(line));
      r.repairs.push_back(std::move(change));
    }
    r.notRepaired = f.strings("not_repaired");
    return r;
  } catch (const json::DecodeError&) {
    return std::nullopt;
  }
}

}  // namespace ks::store
