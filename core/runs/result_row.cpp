#include "core/runs/result_row.h"

#include "core/hash/sha256.h"
#include "core/store/utc_timestamp.h"

namespace ks::runs {

store::StoredResult resultRow(store::StoredResult end, const RunSubject& subject,
                              const std::string& requestedDevice, const std::string& origin) {
  store::StoredResult row = std::move(end);
  row.sourceFile = subject.sourceFile;
  row.taskKey = subject.taskKey;
  row.candidateId = subject.candidateId;
  if (row.codeHash.empty()) row.codeHash = hash::codeHash(subject.code);
  if (row.device.empty()) row.device = requestedDevice.empty() ? "default" : requestedDevice;
  row.origin = origin;
  row.repair = subject.repair;
  row.gpu = subject.gpu;
  row.recordedAt = store::utcTimestampNow();
  return row;
}

}  // namespace ks::runs
