#include "core/runs/agreement.h"

#include <cmath>

namespace ks::runs {

bool disagrees(double measured, double recorded) {
  return recorded > 0 && std::abs(measured / recorded - 1.0) > kDisagreement;
}

Agreement agreement(const MeasuredRun* run, std::optional<double> recorded) {
  if (!run) return Agreement::NotMeasured;
  if (!run->correct()) return Agreement::Failed;
  if (!run->row.speedup || !recorded || !(*recorded > 0)) return Agreement::NotComparable;
  return disagrees(*run->row.speedup, *recorded) ? Agreement::Disagrees : Agreement::Agrees;
}

}  // namespace ks::runs
