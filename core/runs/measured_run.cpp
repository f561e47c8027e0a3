#include "core/runs/measured_run.h"

#include <utility>

namespace ks::runs {

MeasuredRun measuredRun(store::StoredResult row) {
  MeasuredRun run;
  run.result = std::exchange(row.result, std::nullopt);
  run.error = std::exchange(row.error, std::nullopt);
  run.unreadable = std::exchange(row.unreadable, {});
  run.repair = std::exchange(row.repair, std::nullopt);
  run.gpu = std::exchange(row.gpu, {});
  run.row = std::move(row);
  return run;
}

}  // namespace ks::runs
