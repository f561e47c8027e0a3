#pragma once
// Speedup statistics per file, per level and per baseline. One implementation for GUI, CLI and tests.
// Percentiles interpolate linearly between order statistics (numpy's default).
#include <map>
#include <string>
#include <vector>

#include "core/model/run_file.h"

namespace ks {

struct SpeedupStats {
  std::size_t count = 0;        // candidates considered
  std::size_t withCode = 0;     // ... that carry a program
  std::size_t withSpeedup = 0;  // ... that carry a speedup for the baseline (the numbers below use these)
  double mean = 0, median = 0, p25 = 0, p75 = 0, min = 0, max = 0, geomean = 0;
  double shareAbove = 0;  // share of withSpeedup whose speedup > 1.01
};

// Stats over a list of speedups (NaN/inf/non-positive ignored for geomean; counted for the rest).
// count = withCode = withSpeedup = speedups.size() (summarize() sets count and withCode from the run).
// NaN has no order: it is counted in withSpeedup and in the share's denominator but left out of mean,
// median, percentiles, min and max. geomean uses the finite positive values only. All numbers are 0 when
// no value qualifies.
SpeedupStats computeStats(const std::vector<double>& speedups);

// Arithmetic mean of the values as they are (no value left out); 0 for an empty list.
double meanOf(const std::vector<double>& values);

// count: candidates of the run (of the level); withCode: those with a program; the numbers: the recorded
// speedups (Candidate::speedup) for the baseline. byBaseline counts every candidate for every baseline.
struct RunSummary {
  SpeedupStats overall;                 // the summarized baseline ("default" unless summarize names one)
  std::map<int, SpeedupStats> byLevel;  // the same baseline, per level
  // Every baseline the file records, by baselineLabel(): a baseline timed in several modes (CUDA-L2's
  // offline and server) is one series per mode.
  std::map<std::string, SpeedupStats> byBaseline;
};

// "cuBLAS-max (offline)" for a measurement with a mode; the baseline name alone without one.
std::string baselineLabel(const std::string& baseline, const std::string& mode);

RunSummary summarize(const RunFile& run);
// overall and byLevel against `baseline` in timing mode `mode` ("": its first recorded speedup in any mode,
// as Candidate::speedup(baseline) reads it); byBaseline as above.
RunSummary summarize(const RunFile& run, const std::string& baseline, const std::string& mode);

inline constexpr double kSpeedupThreshold = 1.01;

}  // namespace ks
