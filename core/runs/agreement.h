#pragma once
// "The measured speedup disagrees with the recorded one", decided here once for every client: the
// Measured column and the measurements table colour it, the recorded-vs-measured chart counts and draws it.
#include <optional>

#include "core/runs/measured_run.h"

namespace ks::runs {

// A measured speedup disagrees with the recorded one when it is more than this fraction away from it.
inline constexpr double kDisagreement = 0.2;

enum class Agreement { NotMeasured, Agrees, Disagrees, NotComparable, Failed };

// Whether `measured` is more than kDisagreement away from `recorded`; false when `recorded` is not a positive
// speedup (nothing to disagree with).
bool disagrees(double measured, double recorded);

// How `run` (the newest run of the recorded program; nullptr when it was never run) compares with
// `recorded` (the speedup the file claims).
Agreement agreement(const MeasuredRun* run, std::optional<double> recorded);
// The same for a measurement a run file carries from an earlier KernelScope run (Candidate::lastMeasured),
// read by its outcome (core/runs/outcome.h) as a re-run is.
Agreement agreement(const Measurement& measured, std::optional<double> recorded);

}  // namespace ks::runs
