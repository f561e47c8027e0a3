#include "core/runs/record_result.h"

namespace ks::runs {

RecordedResult appendResult(store::ResultStore& store, store::StoredResult row) {
  RecordedResult recorded{std::move(row), {}};
  auto appended = store.append(recorded.row);
  if (appended)
    recorded.row.id = *appended.value;
  else
    recorded.storeError = appended.error;
  return recorded;
}

RecordedResult recordResult(store::ResultStore& store, store::StoredResult end, const RunSubject& subject,
                            const std::string& requestedDevice, const std::string& origin) {
  return appendResult(store, resultRow(std::move(end), subject, requestedDevice, origin));
}

}  // namespace ks::runs
