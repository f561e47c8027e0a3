#include "core/engine/trial_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ks::engine {

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double pos = q * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (pos - static_cast<double>(lo)) * (values[hi] - values[lo]);
}

protocol::TimingStats summarizeTrials(const std::vector<TrialTime>& trials) {
  std::vector<double> official, host, gap;
  for (const auto& t : trials) {
    official.push_back(t.officialMs);
    host.push_back(t.hostMs);
    gap.push_back(t.hostMs - t.officialMs);
  }
  protocol::TimingStats s;
  s.medianMs = quantile(official, 0.5);
  s.minMs = quantile(official, 0);
  s.iqrMs = quantile(official, 0.75) - quantile(official, 0.25);
  s.hostMedianMs = quantile(host, 0.5);
  s.hostMinMs = quantile(host, 0);
  s.clockGapMs = quantile(gap, 0.5);
  s.maxMs = quantile(official, 1);
  s.trialsMs = official;  // in the order run: a slow stretch, or one slow trial, shows where it was
  double mean = 0;
  for (double v : official) mean += v;
  mean /= static_cast<double>(official.size());
  double var = 0;
  for (double v : official) var += (v - mean) * (v - mean);
  s.cv = official.size() > 1 ? std::sqrt(var / static_cast<double>(official.size() - 1)) / mean
                             : std::numeric_limits<double>::quiet_NaN();
  return s;
}

}  // namespace ks::engine
