#include "core/stats/cuda_l1_stats.h"

#include <cmath>

#include "core/stats/speedup_stats.h"

namespace ks::stats {

double cudaL1Score(const std::vector<double>& referenceMs, const std::vector<double>& candidateMs) {
  if (referenceMs.empty() || candidateMs.empty()) return 0;
  const double cand = ks::meanOf(candidateMs);
  return cand > 0 ? ks::meanOf(referenceMs) / cand : 0;
}

double cudaL1Figure(const std::vector<double>& scores) { return scores.empty() ? 0 : ks::meanOf(scores); }

double cudaL1Spread(const std::vector<double>& scores) {
  if (scores.size() < 2) return 0;
  const double m = ks::meanOf(scores);
  if (!(m > 0)) return 0;
  double ss = 0;
  for (double s : scores) ss += (s - m) * (s - m);
  const double sd = std::sqrt(ss / (scores.size() - 1));
  return 1.96 * sd / std::sqrt(static_cast<double>(scores.size())) / m;
}

}  // namespace ks::stats
