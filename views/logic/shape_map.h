#pragma once
// The GEMM tasks of a run laid out by shape for the shape map (views/widgets/shape_map_view.h): one cell per
// task at (M, N) in the panel of its K, holding the speedup over one baseline in one timing mode, recorded
// (the file's claim) or measured here (the newest run of the recorded program, against the task's
// reference), whether it may be drawn as a win (speedup_trust.h), and the colour it gets. The colour scale
// is diverging and logarithmic, centred on 1×: kNeutral at 1×, full colour at kScaleOctaves octaves either
// side, clamped beyond. A cell with no number is drawn empty, never as 1×. No widgets here (tested without
// a display).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "views/logic/speedup_series.h"

namespace ks {

class LoadedRun;
class MeasuredHistory;

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

namespace shape_colours {
inline constexpr Rgb kNeutral{0xf7, 0xf7, 0xf7};    // 1× (ColorBrewer RdBu's middle)
inline constexpr Rgb kFaster{0x21, 0x66, 0xac};     // kScaleOctaves faster and beyond
inline constexpr Rgb kSlower{0xb2, 0x18, 0x2b};     // kScaleOctaves slower and beyond
inline constexpr Rgb kUntrusted{0x9e, 0x9e, 0x9e};  // a caught hack or a fallback: grey, hatched
inline constexpr double kScaleOctaves = 1.0;        // 0.5× .. 2×
}  // namespace shape_colours

// -1 (kScaleOctaves slower or worse) .. 0 (1×) .. +1 (faster), log2 of the speedup; NaN for no speedup.
double speedupPosition(double speedup);
// The diverging colour of a speedup (kNeutral for a non-positive or non-finite one: callers draw those as
// missing, see ShapeMap::Cell::value).
Rgb speedupColour(double speedup);

// Every (baseline, timing mode) pair recorded on the run's GEMM tasks, in order of first appearance.
std::vector<SpeedupSeries> gemmSpeedupSeries(const LoadedRun& run);
std::vector<std::string> baselinesOf(const std::vector<SpeedupSeries>& series);  // in order, each once
std::vector<std::string> modesOf(const std::vector<SpeedupSeries>& series);      // in order, each once
// Whether the run has a GEMM task (the shape views have nothing to show without one).
bool hasGemmTasks(const LoadedRun& run);

class ShapeMap {
 public:
  enum class Source { Recorded, Measured };
  struct Cell {
    int row = -1;  // the LoadedRun row (the task's first candidate)
    std::int64_t m = 0, n = 0, k = 0;
    std::optional<double> recorded;  // against the chosen baseline and mode
    // The newest correct, timed run of the recorded program; without one, the last measurement the file
    // carries with origin "measured" against "default" (the task's reference).
    std::optional<double> measured;
    std::string measuredProblem;  // why a re-run gave no number ("incorrect", "error: build"); "" if none
    bool trusted = true;          // speedupTrust
    std::vector<std::string> distrust;
    // The number the map shows for its source; nullopt: the cell is empty (no number, or not plottable).
    std::optional<double> value;
  };

  ShapeMap() = default;
  ShapeMap(const LoadedRun& run, const MeasuredHistory* history, const std::string& baseline,
           const std::string& mode, Source source);

  Source source() const { return m_source; }
  const std::vector<std::int64_t>& ms() const { return m_ms; }  // distinct, ascending
  const std::vector<std::int64_t>& ns() const { return m_ns; }
  const std::vector<std::int64_t>& ks() const { return m_ks; }
  const std::vector<Cell>& cells() const { return m_cells; }  // by K, then M, then N
  std::vector<const Cell*> cellsOfK(std::int64_t k) const;
  const Cell* find(std::int64_t m, std::int64_t n, std::int64_t k) const;
  const Cell* cellOfRow(int row) const;  // the cell a LoadedRun row (any candidate of its task) is drawn in
  // What the map colours the cell: nullopt when empty; kUntrusted when a number is not trusted.
  std::optional<Rgb> colour(const Cell& cell) const;
  int emptyCount() const;
  int untrustedCount() const;  // cells with a number that is not drawn as one

 private:
  Source m_source = Source::Recorded;
  std::vector<std::int64_t> m_ms, m_ns, m_ks;
  std::vector<Cell> m_cells;
  std::vector<int> m_rowCell;  // per LoadedRun row: its task's cell, -1 when none
};

}  // namespace ks
