#pragma once
// The recorded speedups of a run against one baseline, ready to chart: sorted points that remember their
// LoadedRun row, log2 bins, and per-level groups. Zero, negative or non-finite speedups cannot sit on a log
// axis; they are counted in unplottable() rather than dropped silently.
#include <string>
#include <vector>

namespace ks {

class LoadedRun;

class SpeedupDistribution {
 public:
  struct Point {
    double speedup = 0;
    int row = 0;
    int level = 0;
  };
  struct Bin {
    double low = 0;   // inclusive
    double high = 0;  // exclusive
    std::vector<int> rows;
  };

  SpeedupDistribution() = default;
  SpeedupDistribution(const LoadedRun& run, const std::string& baseline);

  const std::vector<Point>& points() const { return m_points; }  // ascending speedup
  int unplottable() const { return m_unplottable; }
  // Bins of equal width on a log2 scale, edges at powers of 2^(1/2) (2^1 when the speedups span more than
  // 12 octaves, wider still past 24), from the lowest to the highest point; empty bins in between are kept.
  std::vector<Bin> log2Bins() const;
  std::vector<int> levels() const;                    // ascending, levels that have points
  std::vector<Point> pointsOfLevel(int level) const;  // ascending speedup

 private:
  std::vector<Point> m_points;
  int m_unplottable = 0;
};

}  // namespace ks
