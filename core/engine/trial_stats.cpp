#include "core/engine/trial_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

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

namespace {

// quantile(values, 0.5) without the full sort; reorders `values`.
double medianInPlace(std::vector<double>& values) {
  const std::size_t n = values.size(), lo = (n - 1) / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(lo), values.end());
  const double low = values[lo];
  if (n % 2 == 1) return low;
  const double high = *std::min_element(values.begin() + static_cast<std::ptrdiff_t>(lo) + 1, values.end());
  return (low + high) / 2;
}

}  // namespace

std::optional<protocol::Timing::Interval> speedupInterval(const std::vector<double>& referenceMs,
                                                          const std::vector<double>& candidateMs,
                                                          std::uint64_t seed, int resamples) {
  const std::size_t n = referenceMs.size();
  if (n < 2 || candidateMs.size() != n || resamples < 1) return std::nullopt;
  std::mt19937_64 draw(seed);
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  std::vector<double> ref(n), cand(n), ratios;
  ratios.reserve(static_cast<std::size_t>(resamples));
  for (int r = 0; r < resamples; ++r) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t t = pick(draw);
      ref[i] = referenceMs[t];
      cand[i] = candidateMs[t];
    }
    ratios.push_back(medianInPlace(ref) / medianInPlace(cand));
  }
  return protocol::Timing::Interval{quantile(ratios, 0.025), quantile(ratios, 0.975)};
}

}  // namespace ks::engine
