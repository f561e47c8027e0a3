#include "core/stats/speedup_stats.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ks {
namespace {

// Linear interpolation between order statistics (numpy's default "linear" method); `sorted` is non-empty.
double percentile(const std::vector<double>& sorted, double fraction) {
  const double position = fraction * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  const double weight = position - static_cast<double>(below);
  return sorted[below] + (sorted[above] - sorted[below]) * weight;
}

// Adds one candidate to the stats of `baseline` being built: counts now, speedups for computeStats later.
struct Accumulator {
  std::size_t count = 0, withCode = 0;
  std::vector<double> speedups;

  void add(const Candidate& c, const std::string& baseline) {
    ++count;
    if (c.code) ++withCode;
    if (std::optional<double> s = c.speedup(baseline)) speedups.push_back(*s);
  }
  void add(const Candidate& c, const std::string& baseline, const std::string& mode) {
    ++count;
    if (c.code) ++withCode;
    if (std::optional<double> s = c.speedup(baseline, mode)) speedups.push_back(*s);
  }
  SpeedupStats stats() const {
    SpeedupStats s = computeStats(speedups);
    s.count = count;
    s.withCode = withCode;
    return s;
  }
};

}  // namespace

SpeedupStats computeStats(const std::vector<double>& speedups) {
  SpeedupStats s;
  s.count = s.withCode = s.withSpeedup = speedups.size();
  if (speedups.empty()) return s;

  std::vector<double> ordered;
  ordered.reserve(speedups.size());
  double logSum = 0;
  std::size_t logCount = 0, above = 0;
  for (double v : speedups) {
    if (std::isnan(v)) continue;
    ordered.push_back(v);
    if (v > kSpeedupThreshold) ++above;
    if (std::isfinite(v) && v > 0) {
      logSum += std::log(v);
      ++logCount;
    }
  }
  s.shareAbove = static_cast<double>(above) / static_cast<double>(speedups.size());
  if (logCount > 0) s.geomean = std::exp(logSum / static_cast<double>(logCount));
  if (ordered.empty()) return s;

  if (!std::is_sorted(ordered.begin(), ordered.end()))  // the charts pass a sorted million
    std::sort(ordered.begin(), ordered.end());
  double sum = 0;
  for (double v : ordered) sum += v;
  s.mean = sum / static_cast<double>(ordered.size());
  s.min = ordered.front();
  s.max = ordered.back();
  s.p25 = percentile(ordered, 0.25);
  s.median = percentile(ordered, 0.5);
  s.p75 = percentile(ordered, 0.75);
  return s;
}

std::string baselineLabel(const std::string& baseline, const std::string& mode) {
  return mode.empty() ? baseline : baseline + " (" + mode + ")";
}

RunSummary summarize(const RunFile& run) { return summarize(run, "default", ""); }

RunSummary summarize(const RunFile& run, const std::string& baseline, const std::string& mode) {
  std::set<std::pair<std::string, std::string>> series;  // (baseline, mode)
  for (const Task& task : run.tasks)
    for (const Candidate& c : task.candidates)
      for (const Measurement& m : c.measurements)
        if (m.origin == "recorded") series.emplace(m.baseline, m.mode);

  Accumulator overall;
  std::map<int, Accumulator> byLevel;
  std::map<std::pair<std::string, std::string>, Accumulator> bySeries;
  for (const auto& key : series) bySeries[key];
  for (const Task& task : run.tasks) {
    Accumulator& level = byLevel[task.level];
    for (const Candidate& c : task.candidates) {
      if (mode.empty()) {
        overall.add(c, baseline);
        level.add(c, baseline);
      } else {
        overall.add(c, baseline, mode);
        level.add(c, baseline, mode);
      }
      for (auto& [key, accumulator] : bySeries) {
        // A baseline recorded without a mode keeps its meaning: the first recorded speedup for it.
        if (key.second.empty())
          accumulator.add(c, key.first);
        else
          accumulator.add(c, key.first, key.second);
      }
    }
  }

  RunSummary summary;
  summary.overall = overall.stats();
  for (const auto& [level, accumulator] : byLevel) summary.byLevel[level] = accumulator.stats();
  for (const auto& [key, accumulator] : bySeries)
    summary.byBaseline[baselineLabel(key.first, key.second)] = accumulator.stats();
  return summary;
}

double meanOf(const std::vector<double>& values) {
  if (values.empty()) return 0;
  double sum = 0;
  for (double x : values) sum += x;
  return sum / static_cast<double>(values.size());
}

}  // namespace ks
