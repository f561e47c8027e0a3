#include "views/logic/speedup_series.h"

#include <algorithm>

#include "core/protocol/gemm_baselines.h"
#include "core/stats/gemm_methods.h"
#include "core/stats/speedup_stats.h"

namespace ks {

std::string seriesLabel(const SpeedupSeries& series) { return baselineLabel(series.baseline, series.mode); }

std::vector<SpeedupSeries> recordedSeries(const RunFile& run) {
  std::vector<SpeedupSeries> out;
  bool recordsDefault = false;
  for (const Task& task : run.tasks)
    for (const Candidate& c : task.candidates)
      for (const Measurement& m : c.measurements) {
        if (m.origin != "recorded" || !m.speedup) continue;
        SpeedupSeries s{m.baseline.str(), m.mode.str()};
        if (s.isDefault()) {
          recordsDefault = true;
          continue;
        }
        if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
      }
  if (recordsDefault || out.empty()) out.insert(out.begin(), SpeedupSeries{});
  return out;
}

std::optional<SpeedupSeries> findSeries(const std::vector<SpeedupSeries>& series, const std::string& text) {
  for (const SpeedupSeries& s : series)
    if (seriesLabel(s) == text) return s;
  for (const SpeedupSeries& s : series)
    if (s.baseline == text) return s;
  return std::nullopt;
}

const Measurement* recordedMeasurement(const Candidate& c, const SpeedupSeries& series) {
  for (const Measurement& m : c.measurements)
    if (m.origin == "recorded" && m.speedup && m.baseline == series.baseline &&
        (series.mode.empty() || m.mode == series.mode))
      return &m;
  return nullptr;
}

std::optional<double> recordedSpeedup(const Candidate& c, const SpeedupSeries& series) {
  const Measurement* m = recordedMeasurement(c, series);
  return m ? m->speedup : std::nullopt;
}

std::vector<SpeedupSeries> seriesOf(const Candidate& c) {
  std::vector<SpeedupSeries> out;
  for (const Measurement& m : c.measurements) {
    if (m.origin != "recorded" || !m.speedup) continue;
    SpeedupSeries s{m.baseline.str(), m.mode.str()};
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  }
  return out;
}

std::optional<double> measuredSpeedup(const runs::MeasuredRun& run, const SpeedupSeries& series) {
  if (!run.correct()) return std::nullopt;
  if (series.isDefault()) return run.row.speedup;
  if (!run.result || !run.result->baselines || series.mode.empty()) return std::nullopt;
  for (stats::GemmMethod method : stats::kGemmMethods)
    if (series.mode == stats::recordedMode(method)) {
      const protocol::BaselineTiming* t =
          protocol::findTiming(*run.result->baselines, series.baseline, stats::gemmMethodName(method));
      if (t && t->speedup > 0) return t->speedup;
    }
  return std::nullopt;
}

}  // namespace ks
