#include "views/logic/empty_chart_text.h"

#include <algorithm>

#include "views/logic/loaded_run.h"

namespace ks {

std::string emptyChartText(const LoadedRun* run, const SpeedupSeries& series,
                           const SpeedupDistribution& distribution) {
  if (!run) return "Open a run to chart its recorded speedups.";
  if (!distribution.points().empty()) return {};
  const std::string label = seriesLabel(series);
  if (distribution.unplottable() > 0)
    return "Every speedup recorded against " + label +
           " is zero, negative or not finite: none can sit on a log axis.";
  const bool recordsAny = std::any_of(run->run().tasks.begin(), run->run().tasks.end(), [](const Task& t) {
    return std::any_of(t.candidates.begin(), t.candidates.end(),
                       [](const Candidate& c) { return !seriesOf(c).empty(); });
  });
  if (!recordsAny)
    return "The file records no speedup. Run (F9) times candidates here; Recorded vs measured charts them.";
  std::string text = "No candidate records a speedup against " + label + ". The file records ";
  const auto& all = run->series();
  constexpr std::size_t kNamed = 6;
  std::size_t named = 0;
  for (const SpeedupSeries& s : all) {
    if (s == series || named == kNamed) continue;
    text += (named ? ", " : "") + seriesLabel(s);
    ++named;
  }
  const std::size_t others = all.size() - (run->seriesIndex(series) >= 0 ? 1 : 0);
  if (others > named) text += " and " + std::to_string(others - named) + " more";
  return text + ": choose one in the Baseline box.";
}

}  // namespace ks
