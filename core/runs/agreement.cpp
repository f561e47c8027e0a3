#include "core/runs/agreement.h"

#include <cmath>

#include "core/runs/outcome.h"

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

Agreement agreement(const Measurement& measured, std::optional<double> recorded) {
  if (outcomeOf(measured) != Outcome::Correct) return Agreement::Failed;
  if (!measured.speedup || !recorded || !(*recorded > 0)) return Agreement::NotComparable;
  return disagrees(*measured.speedup, *recorded) ? Agreement::Disagrees : Agreement::Agrees;
}

}  // namespace ks::runs
