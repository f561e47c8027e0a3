#pragma once
// Why a speedup chart has nothing to draw, in words: an empty chart says so in its title instead of showing
// bare axes (and draws no axes, so no axis title lands on the chart's).
#include <string>

#include "views/logic/speedup_distribution.h"
#include "views/logic/speedup_series.h"

namespace ks {

class LoadedRun;

// Empty when `distribution` (of `series` over `run`) has points to chart. Otherwise one or two sentences:
// no run open; every number of the series unplottable; the file records no speedup at all; or no candidate
// records this series, followed by the series the file does record.
std::string emptyChartText(const LoadedRun* run, const SpeedupSeries& series,
                           const SpeedupDistribution& distribution);

}  // namespace ks
