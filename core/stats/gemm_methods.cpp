#include "core/stats/gemm_methods.h"

#include <algorithm>
#include <cmath>

#include "core/stats/speedup_stats.h"

namespace ks::stats {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  const double upper = v[mid];
  if (v.size() % 2) return upper;
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

// Mean of 1/t: the per-call rate (TFLOP/s up to the FLOPs, which cancel in a ratio). NaN on a zero time.
double meanRate(const std::vector<double>& ms) {
  double sum = 0;
  for (double t : ms) {
    if (!(t > 0)) return std::nan("");
    sum += 1.0 / t;
  }
  return ms.empty() ? std::nan("") : sum / static_cast<double>(ms.size());
}

bool cudaL2(GemmMethod m) { return m == GemmMethod::CudaL2Offline || m == GemmMethod::CudaL2Server; }

}  // namespace

const char* gemmMethodName(GemmMethod m) {
  switch (m) {
    case GemmMethod::CudaL2Offline: return "cuda-l2-offline";
    case GemmMethod::CudaL2Server: return "cuda-l2-server";
    case GemmMethod::KscopeL2Flushed: return "kscope-l2-flushed";
    case GemmMethod::KscopeL2Warm: return "kscope-l2-warm";
  }
  return "";
}

const char* recordedMode(GemmMethod m) {
  if (m == GemmMethod::CudaL2Offline) return "offline";
  if (m == GemmMethod::CudaL2Server) return "server";
  return "";
}

bool freshInputsEachRound(GemmMethod m) { return cudaL2(m); }
bool flushesL2(GemmMethod m) { return m == GemmMethod::KscopeL2Flushed; }

std::vector<std::size_t> roundOrder(std::size_t count, std::uint64_t seed, std::uint64_t round) {
  std::vector<std::size_t> order(count);
  for (std::size_t i = 0; i < count; ++i) order[i] = i;
  // One generator per round, seeded from both: a round's order does not depend on how many rounds ran before.
  std::seed_seq seq{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                    static_cast<std::uint32_t>(round), static_cast<std::uint32_t>(round >> 32)};
  std::mt19937_64 bits(seq);
  for (std::size_t i = count; i > 1; --i) {
    const std::size_t j = static_cast<std::size_t>(bits() % i);  // bias < i / 2^64: none that matters
    std::swap(order[i - 1], order[j]);
  }
  return order;
}

ArrivalGaps::ArrivalGaps(double qps, std::uint64_t seed) : qps_(qps > 0 ? qps : 1), bits_(seed) {}

double ArrivalGaps::nextSeconds() {
  // u uniform in [0, 1) from the top 53 bits; -ln(1 - u) is exponential with mean 1.
  const double u = static_cast<double>(bits_() >> 11) * 0x1.0p-53;
  return -std::log1p(-u) / qps_;
}

double summaryMs(GemmMethod m, const std::vector<double>& ms) { return cudaL2(m) ? meanOf(ms) : median(ms); }

double methodSpeedup(GemmMethod m, const std::vector<double>& candidateMs, const std::vector<double>& baselineMs) {
  if (candidateMs.empty() || baselineMs.empty()) return 0;
  if (cudaL2(m)) {
    const double candidate = meanRate(candidateMs), baseline = meanRate(baselineMs);
    return std::isfinite(candidate) && std::isfinite(baseline) && baseline > 0 ? candidate / baseline : 0;
  }
  const double candidate = median(candidateMs), baseline = median(baselineMs);
  return candidate > 0 ? baseline / candidate : 0;
}

double rateRatioSpread(const std::vector<double>& candidateMs, const std::vector<double>& baselineMs) {
  // The standard error of a side's mean rate, relative to that mean; NaN when it cannot be had.
  const auto relativeError = [](const std::vector<double>& ms) {
    if (ms.size() < 2) return std::nan("");
    double sum = 0, squares = 0;
    for (double t : ms) {
      if (!(t > 0)) return std::nan("");
      sum += 1.0 / t;
      squares += 1.0 / (t * t);
    }
    const double n = static_cast<double>(ms.size()), mean = sum / n;
    const double variance = std::max(0.0, (squares - n * mean * mean) / (n - 1));
    return std::sqrt(variance / n) / mean;
  };
  const double c = relativeError(candidateMs), b = relativeError(baselineMs);
  return std::isfinite(c) && std::isfinite(b) ? 1.96 * std::sqrt(c * c + b * b) : 0;
}

}  // namespace ks::stats
