#pragma once
// How the explorer writes a speedup: enough digits to tell 1.004x from the 1.01x threshold, fewer for
// large ones ("1.004×", "13.21×", "368.2×").
#include <QString>

namespace ks {

QString formatSpeedup(double speedup);

}  // namespace ks
