#pragma once
// The recorded speedups of a run in one series (a baseline and timing mode, speedup_series.h), ready to
// chart: sorted points that remember their LoadedRun row, log2 bins, and per-level groups. Zero, negative or
// non-finite speedups cannot sit on a log axis; they are counted in unplottable() rather than dropped
// silently. Each point carries its verdict from the one trust rule (speedup_trust.h: a caught hack, a
// fallback-timed number), so that every chart marks the same points as "not a win".
#include <string>
#include <vector>

#include "views/logic/speedup_series.h"

namespace ks {

class LoadedRun;
class MeasuredHistory;

class SpeedupDistribution {
 public:
  struct Point {
    double speedup = 0;
    int row = 0;
    int level = 0;
    bool hack = false;      // speedupTrust: a static or runtime hack flag speaks against it
    bool fellBack = false;  // speedupTrust: its newest re-run timed the PyTorch fallback, not the kernel
    bool trusted() const { return !hack && !fellBack; }
  };
  struct Bin {
    double low = 0;   // inclusive
    double high = 0;  // exclusive
    std::vector<int> rows;
    int notWins = 0;  // how many of `rows` are not trusted (Point::trusted)
  };

  SpeedupDistribution() = default;
  // `history` (may be null): the re-runs whose verdicts count (speedupTrust).
  SpeedupDistribution(const LoadedRun& run, const SpeedupSeries& series,
                      const MeasuredHistory* history = nullptr);
  // The series of `baseline` without a mode (its first recorded speedup).
  SpeedupDistribution(const LoadedRun& run, const std::string& baseline,
                      const MeasuredHistory* history = nullptr)
      : SpeedupDistribution(run, SpeedupSeries{baseline, {}}, history) {}

  const std::vector<Point>& points() const { return m_points; }  // ascending speedup
  int unplottable() const { return m_unplottable; }
  // Points that are not drawn as wins, each counted once: a caught hack (also when it fell back), else a
  // fallback-timed number.
  int caughtHacks() const { return m_caughtHacks; }
  int fallbackTimed() const { return m_fallbackTimed; }
  // Bins of equal width on a log2 scale, edges at powers of 2^(1/2) (2^1 when the speedups span more than
  // 12 octaves, wider still past 24), from the lowest to the highest point; empty bins in between are kept.
  std::vector<Bin> log2Bins() const;
  std::vector<int> levels() const;                    // ascending, levels that have points
  std::vector<Point> pointsOfLevel(int level) const;  // ascending speedup

 private:
  std::vector<Point> m_points;
  int m_unplottable = 0;
  int m_caughtHacks = 0;
  int m_fallbackTimed = 0;
};

}  // namespace ks
