#include "views/logic/shape_map.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/speedup_trust.h"
#include "core/model/add_once.h"

namespace ks {
namespace {

std::uint8_t mix(std::uint8_t from, std::uint8_t to, double t) {
  return static_cast<std::uint8_t>(std::lround(from + (to - from) * t));
}

Rgb mix(const Rgb& from, const Rgb& to, double t) {
  return {mix(from.r, to.r, t), mix(from.g, to.g, t), mix(from.b, to.b, t)};
}

bool plottable(double speedup) { return std::isfinite(speedup) && speedup > 0; }

}  // namespace

double speedupPosition(double speedup) {
  if (!plottable(speedup)) return std::numeric_limits<double>::quiet_NaN();
  return std::clamp(std::log2(speedup) / shape_colours::kScaleOctaves, -1.0, 1.0);
}

Rgb speedupColour(double speedup) {
  const double at = speedupPosition(speedup);
  if (!std::isfinite(at) || at == 0) return shape_colours::kNeutral;
  return at > 0 ? mix(shape_colours::kNeutral, shape_colours::kFaster, at)
                : mix(shape_colours::kNeutral, shape_colours::kSlower, -at);
}

std::vector<SpeedupSeries> gemmSpeedupSeries(const LoadedRun& run) {
  std::vector<SpeedupSeries> series;
  for (const Task& task : run.run().tasks) {
    if (!task.gemm) continue;
    for (const Candidate& c : task.candidates)
      for (const Measurement& m : c.measurements) {
        if (m.origin != "recorded" || !m.speedup) continue;
        SpeedupSeries s{m.baseline, m.mode};
        if (std::find(series.begin(), series.end(), s) == series.end()) series.push_back(std::move(s));
      }
  }
  return series;
}

std::vector<std::string> baselinesOf(const std::vector<SpeedupSeries>& series) {
  std::vector<std::string> out;
  for (const SpeedupSeries& s : series) addOnce(out, s.baseline);
  return out;
}

std::vector<std::string> modesOf(const std::vector<SpeedupSeries>& series) {
  std::vector<std::string> out;
  for (const SpeedupSeries& s : series) addOnce(out, s.mode);
  return out;
}

bool hasGemmTasks(const LoadedRun& run) {
  return std::any_of(run.run().tasks.begin(), run.run().tasks.end(),
                     [](const Task& t) { return t.gemm.has_value(); });
}

ShapeMap::ShapeMap(const LoadedRun& run, const MeasuredHistory* history, const std::string& baseline,
                   const std::string& mode, Source source)
    : m_source(source), m_rowCell(static_cast<std::size_t>(run.rowCount()), -1) {
  std::vector<int> taskCell(run.run().tasks.size(), -1);
  for (int row = 0; row < run.rowCount(); ++row) {
    const int taskIndex = run.row(row).task;
    const Task& task = run.task(row);
    if (!task.gemm) continue;
    int& index = taskCell[static_cast<std::size_t>(taskIndex)];
    if (index < 0) {  // the task's first candidate stands for it (CUDA-L2: the only one)
      Cell cell;
      cell.row = row;
      cell.m = task.gemm->m;
      cell.n = task.gemm->n;
      cell.k = task.gemm->k;
      if (const Candidate* c = run.candidate(row)) {
        cell.recorded = c->speedup(baseline, mode);
        const runs::MeasuredRun* measured = history ? history->latestOfRecorded(row) : nullptr;
        if (measured) {
          if (measured->correct() && measured->row.speedup)
            cell.measured = measured->row.speedup;
          else
            cell.measuredProblem = measured->correct()             ? "not timed"
                                   : measured->row.outcome.empty() ? "failed"
                                                                   : measured->row.outcome;
          if (!measured->row.errorKind.empty()) cell.measuredProblem += ": " + measured->row.errorKind;
        } else {  // a run file may carry what KernelScope measured before (origin "measured"): the last one
          for (const Measurement& m : c->measurements)
            if (m.origin == "measured" && m.baseline == "default" && m.speedup) cell.measured = m.speedup;
        }
        const SpeedupTrust trust = speedupTrust(run, history, row);
        cell.trusted = trust.trusted;
        cell.distrust = trust.reasons;
      }
      const std::optional<double> shown = source == Source::Recorded ? cell.recorded : cell.measured;
      if (shown && plottable(*shown)) cell.value = shown;
      index = static_cast<int>(m_cells.size());
      m_cells.push_back(std::move(cell));
    }
  }
  std::vector<std::size_t> order(m_cells.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Cell &x = m_cells[a], &y = m_cells[b];
    return std::tie(x.k, x.m, x.n, x.row) < std::tie(y.k, y.m, y.n, y.row);
  });
  std::vector<Cell> sorted;
  std::vector<int> moved(m_cells.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    moved[order[i]] = static_cast<int>(i);
    sorted.push_back(std::move(m_cells[order[i]]));
  }
  m_cells = std::move(sorted);
  for (int row = 0; row < run.rowCount(); ++row) {
    const int index = taskCell[static_cast<std::size_t>(run.row(row).task)];
    if (index >= 0) m_rowCell[static_cast<std::size_t>(row)] = moved[static_cast<std::size_t>(index)];
  }
  for (const Cell& c : m_cells) {
    m_ms.push_back(c.m);
    m_ns.push_back(c.n);
    m_ks.push_back(c.k);
  }
  for (auto* values : {&m_ms, &m_ns, &m_ks}) {
    std::sort(values->begin(), values->end());
    values->erase(std::unique(values->begin(), values->end()), values->end());
  }
}

std::vector<const ShapeMap::Cell*> ShapeMap::cellsOfK(std::int64_t k) const {
  std::vector<const Cell*> out;
  for (const Cell& c : m_cells)
    if (c.k == k) out.push_back(&c);
  return out;
}

const ShapeMap::Cell* ShapeMap::find(std::int64_t m, std::int64_t n, std::int64_t k) const {
  for (const Cell& c : m_cells)
    if (c.m == m && c.n == n && c.k == k) return &c;
  return nullptr;
}

const ShapeMap::Cell* ShapeMap::cellOfRow(int row) const {
  if (row < 0 || row >= static_cast<int>(m_rowCell.size())) return nullptr;
  const int index = m_rowCell[static_cast<std::size_t>(row)];
  return index < 0 ? nullptr : &m_cells[static_cast<std::size_t>(index)];
}

std::optional<Rgb> ShapeMap::colour(const Cell& cell) const {
  if (!cell.value) return std::nullopt;
  if (!cell.trusted) return shape_colours::kUntrusted;
  return speedupColour(*cell.value);
}

int ShapeMap::emptyCount() const {
  return static_cast<int>(
      std::count_if(m_cells.begin(), m_cells.end(), [](const Cell& c) { return !c.value; }));
}

int ShapeMap::untrustedCount() const {
  return static_cast<int>(
      std::count_if(m_cells.begin(), m_cells.end(), [](const Cell& c) { return c.value && !c.trusted; }));
}

}  // namespace ks
