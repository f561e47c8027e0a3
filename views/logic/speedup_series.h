#pragma once
// A speedup series: the speedups a file records against one baseline in one timing mode. CUDA-L1 and run
// files record "default" (the PyTorch reference as written) without a mode; a CUDA-L2 release records ten
// baselines ("torch.matmul", "cuBLAS-max", ...) in two modes ("offline", "server"). The explorer shows one
// series at a time (OpenRun::series): the task table's Speedup column, its range filter and its vs box, the
// Charts tab, the search tree, the candidate's header, the Measurements headline, the report and the slides.
#include <optional>
#include <string>
#include <vector>

#include "core/model/candidate.h"
#include "core/model/run_file.h"
#include "core/runs/measured_run.h"

namespace ks {

struct SpeedupSeries {
  std::string baseline = "default";
  std::string mode;  // "" when the file names no mode
  bool operator==(const SpeedupSeries&) const = default;
  // "default" without a mode: what a re-run measures against (the task's reference).
  bool isDefault() const { return baseline == "default" && mode.empty(); }
};

// "cuBLAS-max (offline)"; the baseline alone without a mode ("default", "torch_compile_default"): the words
// `kscope summary` and the report use (baselineLabel, core/stats/speedup_stats.h).
std::string seriesLabel(const SpeedupSeries& series);

// Every series a recorded speedup of `run` names, in order of first appearance, "default" first when any
// candidate records it. Never empty: a file that records no speedup has the one series "default", so its
// first series is always one it records when it records any.
std::vector<SpeedupSeries> recordedSeries(const RunFile& run);

// The series of `series` whose label is `text`, else the first whose baseline is `text` (a baseline named
// without its mode: "cuBLAS-max" is its first mode's); nullopt when none.
std::optional<SpeedupSeries> findSeries(const std::vector<SpeedupSeries>& series, const std::string& text);

// The measurement `c` records for `series`: with a mode, the first recorded in that mode; without one, the
// first recorded against the baseline in any mode (as kscope summary reads it). Null when none.
const Measurement* recordedMeasurement(const Candidate& c, const SpeedupSeries& series);
std::optional<double> recordedSpeedup(const Candidate& c, const SpeedupSeries& series);

// The series `c` records a speedup for, in the order of its measurements.
std::vector<SpeedupSeries> seriesOf(const Candidate& c);

// What a re-run measured against `series`: for "default" its own speedup (against the task's reference);
// for a GEMM baseline the timing of that baseline by the method of the series' mode ("offline":
// cuda-l2-offline, core/stats/gemm_methods.h), when the run timed it. nullopt when the run has no number
// against the series (an incorrect or untimed run, a baseline it does not time).
std::optional<double> measuredSpeedup(const runs::MeasuredRun& run, const SpeedupSeries& series);

}  // namespace ks
