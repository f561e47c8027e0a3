#include "views/logic/speedup_format.h"

#include <cmath>

namespace ks {

QString formatSpeedup(double speedup) {
  if (!std::isfinite(speedup)) return QStringLiteral("—");
  const double a = std::abs(speedup);
  const int decimals = a < 10 ? 3 : a < 100 ? 2 : 1;
  return QString::number(speedup, 'f', decimals) + QStringLiteral("×");
}

}  // namespace ks
