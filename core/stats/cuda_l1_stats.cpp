#include "core/stats/cuda_l1_stats.h"

#include <cmath>
#include <numeric>

namespace ks::stats {
namespace {
double mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / v.size(); }
}  // namespace

double cudaL1Score(const std::vector<double>& referenceMs, const std::vector<double>& candidateMs) {
  if (referenceMs.empty() || candidateMs.empty()) return 0;
  const double cand = mean(candidateMs);
  return cand > 0 ? mean(referenceMs) / cand : 0;
}

double cudaL1Figure(const std::vector<double>& scores) { return scores.empty() ? 0 : mean(scores); }

double cudaL1Spread(const std::vector<double>& scores) {
  if (scores.size() < 2) return 0;
  const double m = mean(scores);
  if (!(m > 0)) return 0;
  double ss = 0;
  for (double s : scores) ss += (s - m) * (s - m);
  const double sd = std::sqrt(ss / (scores.size() - 1));
  return 1.96 * sd / std::sqrt(static_cast<double>(scores.size())) / m;
}

}  // namespace ks::stats
