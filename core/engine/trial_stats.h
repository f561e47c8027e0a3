#pragma once
// Summary statistics of timed trials. Quartiles interpolate linearly between order statistics (numpy's
// default), so median and IQR agree with what a person recomputes from the raw times.
#include <cstdint>
#include <optional>
#include <vector>

#include "core/engine/trial_time.h"
#include "core/protocol/evaluate_result.h"

namespace ks::engine {

double quantile(std::vector<double> values, double q);  // q in [0, 1]; NaN for no values

// median, min, max, IQR, CV (sample standard deviation / mean) and every trial of the official clock; median
// and min of the host clock; median over trials of host - official.
protocol::TimingStats summarizeTrials(const std::vector<TrialTime>& trials);

inline constexpr int kSpeedupResamples = 2000;

// 95 % percentile-bootstrap interval of median(reference) / median(candidate): `resamples` draws of the
// trials with replacement, each trial's two calls kept together (they ran side by side, so what slowed both
// cancels, as in the speedup itself), from a generator seeded with `seed` so a result can be recomputed.
// It covers the spread of these trials only, not what differs between runs (the CPU's speed, another
// process, an autotuner's choice). nullopt unless both lists have the same length of at least 2.
std::optional<protocol::Timing::Interval> speedupInterval(const std::vector<double>& referenceMs,
                                                          const std::vector<double>& candidateMs,
                                                          std::uint64_t seed,
                                                          int resamples = kSpeedupResamples);

}  // namespace ks::engine
