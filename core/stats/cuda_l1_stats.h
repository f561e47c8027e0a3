#pragma once
// CUDA-L1's statistic (its eval_pipeline): a global trial's score is mean(reference) / mean(candidate) over its
// performance trials, and the figure is the mean of the scores. One implementation for the runner, the
// client and the cross-check.
#include <vector>

namespace ks::stats {

// mean(referenceMs) / mean(candidateMs); 0 when either is empty or the candidate's mean is not positive.
double cudaL1Score(const std::vector<double>& referenceMs, const std::vector<double>& candidateMs);
// The mean of the scores; 0 for none.
double cudaL1Figure(const std::vector<double>& scores);
// The 95 % half-width of that mean (1.96 sample standard deviations over the square root of the count),
// relative to the mean; 0 for fewer than two scores.
double cudaL1Spread(const std::vector<double>& scores);

}  // namespace ks::stats
