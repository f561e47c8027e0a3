#pragma once
// Summary statistics of timed trials. Quartiles interpolate linearly between order statistics (numpy's
// default), so median and IQR agree with what a person recomputes from the raw times.
#include <vector>

#include "core/engine/trial_time.h"
#include "core/protocol/evaluate_result.h"

namespace ks::engine {

double quantile(std::vector<double> values, double q);  // q in [0, 1]; NaN for no values

// median, min, max, IQR, CV (sample standard deviation / mean) and every trial of the official clock; median
// and min of the host clock; median over trials of host - official.
protocol::TimingStats summarizeTrials(const std::vector<TrialTime>& trials);

}  // namespace ks::engine
