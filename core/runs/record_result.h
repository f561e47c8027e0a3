#pragma once
// What every client does with the runner's answer to a re-run (kscope run, kscope batch, the GUI's
// RunWorker): the store row of its typed end event (resultRow, result_row.h), appended to the results store.
// A client that writes elsewhere between the two (kscope batch writes its --out line first) calls resultRow
// and appendResult itself; the others call recordResult.
#include <cstdint>
#include <string>

#include "core/runs/result_row.h"
#include "core/store/result_store.h"

namespace ks::runs {

struct RecordedResult {
  store::StoredResult row;  // row.id: the store's id; 0 when it was not recorded
  std::string storeError;   // why the store did not take it; empty when it did
};

// Appends `row` to `store`: the row comes back with its id, or with the store's error.
RecordedResult appendResult(store::ResultStore& store, store::StoredResult row);

// resultRow(end, subject, requestedDevice, origin), appended to `store`.
RecordedResult recordResult(store::ResultStore& store, store::StoredResult end, const RunSubject& subject,
                            const std::string& requestedDevice, const std::string& origin);

}  // namespace ks::runs
