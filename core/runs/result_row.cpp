#include "core/runs/result_row.h"

#include "core/hash/sha256.h"
#include "core/store/utc_timestamp.h"

namespace ks::runs {

store::StoredResult resultRow(const nlohmann::ordered_json& endEvent, const RunSubject& subject,
                              const std::string& requestedDevice, const std::string& origin) {
  store::StoredResult row = store::recordFromEndEvent(endEvent);
  row.sourceFile = subject.sourceFile;
  row.taskKey = subject.taskKey;
  row.candidateId = subject.candidateId;
  if (row.codeHash.empty()) row.codeHash = hash::codeHash(subject.code);
  if (row.device.empty()) row.device = requestedDevice.empty() ? "default" : requestedDevice;
  row.origin = origin;
  if (!subject.repair.is_null() && row.result.is_object()) row.result["repair"] = subject.repair;
  if (!subject.gpu.empty() && row.result.is_object()) row.result["gpu"] = subject.gpu;
  row.recordedAt = store::utcTimestampNow();
  return row;
}

}  // namespace ks::runs
