#include "views/logic/speedup_distribution.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "core/formats/parallel_for.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/radix_sort.h"
#include "views/logic/speedup_trust.h"

namespace ks {

SpeedupDistribution::SpeedupDistribution(const LoadedRun& run, const SpeedupSeries& series,
                                         const MeasuredHistory* history) {
  // Rows in chunks on every core (a million rows: each chunk's points, then joined in row order), each
  // chunk with its own counts; a small run stays on this thread (kMinChunkRows).
  struct Chunk {
    std::vector<Point> points;
    int unplottable = 0, caughtHacks = 0, fallbackTimed = 0;
  };
  const auto rows = static_cast<std::size_t>(std::max(run.rowCount(), 0));
  std::vector<Chunk> chunks(chunkCount(rows, kMinChunkRows));
  parallelRanges(rows, chunks.size(), [&](std::size_t k, std::size_t first, std::size_t last) {
    Chunk& chunk = chunks[k];
    for (std::size_t i = first; i < last; ++i) {
      const int r = static_cast<int>(i);
      const Candidate* c = run.candidate(r);
      if (!c) continue;
      const auto s = recordedSpeedup(*c, series);
      if (!s) continue;
      if (!std::isfinite(*s) || *s <= 0) {
        ++chunk.unplottable;
        continue;
      }
      // The trust rule, where something could speak against the number (a flag, a re-run).
      const bool judged = !run.flags(r).empty() || (history && history->latestOfRecorded(r));
      const SpeedupTrust trust = judged ? speedupTrust(run, history, r) : SpeedupTrust{};
      chunk.points.push_back({*s, r, run.task(r).level, trust.hack, trust.fellBack});
      if (trust.hack)
        ++chunk.caughtHacks;
      else if (trust.fellBack)
        ++chunk.fallbackTimed;
    }
  });
  std::size_t total = 0;
  for (const Chunk& chunk : chunks) total += chunk.points.size();
  m_points.reserve(total);
  for (Chunk& chunk : chunks) {
    m_points.insert(m_points.end(), chunk.points.begin(), chunk.points.end());
    m_unplottable += chunk.unplottable;
    m_caughtHacks += chunk.caughtHacks;
    m_fallbackTimed += chunk.fallbackTimed;
    std::vector<Point>().swap(chunk.points);
  }
  // By speedup, then row: the points were added in row order and the sort is stable.
  radix::sortBy(m_points, [](const Point& p) { return radix::doubleKey(p.speedup); });
}

std::vector<SpeedupDistribution::Bin> SpeedupDistribution::log2Bins() const {
  if (m_points.empty()) return {};
  const double lo = std::log2(m_points.front().speedup);
  const double hi = std::log2(m_points.back().speedup);
  double width = 0.5;
  while (hi - lo > 24 * width) width *= 2;
  const auto first = static_cast<long>(std::floor(lo / width));
  const auto last = static_cast<long>(std::floor(hi / width));
  std::vector<Bin> bins(static_cast<std::size_t>(last - first + 1));
  for (std::size_t i = 0; i < bins.size(); ++i) {
    bins[i].low = std::exp2(static_cast<double>(first + static_cast<long>(i)) * width);
    bins[i].high = std::exp2(static_cast<double>(first + static_cast<long>(i) + 1) * width);
  }
  for (const Point& p : m_points) {
    auto k = static_cast<long>(std::floor(std::log2(p.speedup) / width)) - first;
    // Rounding in log2 can put a point an ulp across an edge; the edges themselves decide.
    k = std::clamp(k, 0L, static_cast<long>(bins.size()) - 1);
    if (p.speedup < bins[static_cast<std::size_t>(k)].low && k > 0) --k;
    if (p.speedup >= bins[static_cast<std::size_t>(k)].high && k + 1 < static_cast<long>(bins.size())) ++k;
    bins[static_cast<std::size_t>(k)].rows.push_back(p.row);
    if (!p.trusted()) ++bins[static_cast<std::size_t>(k)].notWins;
  }
  return bins;
}

std::vector<int> SpeedupDistribution::levels() const {
  std::vector<int> levels;
  for (const Point& p : m_points)
    if (std::find(levels.begin(), levels.end(), p.level) == levels.end()) levels.push_back(p.level);
  std::sort(levels.begin(), levels.end());
  return levels;
}

std::vector<SpeedupDistribution::Point> SpeedupDistribution::pointsOfLevel(int level) const {
  std::vector<Point> points;
  std::copy_if(m_points.begin(), m_points.end(), std::back_inserter(points),
               [level](const Point& p) { return p.level == level; });
  return points;
}

}  // namespace ks
