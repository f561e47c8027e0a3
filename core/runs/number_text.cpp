#include "core/runs/number_text.h"

#include <cmath>
#include <cstdio>

namespace ks::runs {

std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string timesText(double v) { return fixed2(v) + "×"; }

std::string durationText(double ms) {
  char buf[32];
  if (ms < 1)
    std::snprintf(buf, sizeof buf, "%.1f µs", ms * 1000);
  else
    std::snprintf(buf, sizeof buf, "%.2f ms", ms);
  return buf;
}

std::string signedPercentText(double r) {
  const long p = std::lround((r - 1) * 100);
  if (p == 0) return "±0 %";
  return (p > 0 ? "+" : "−") + std::to_string(std::labs(p)) + " %";
}

std::string percentText(double share) { return std::to_string(std::lround(share * 100)) + " %"; }

}  // namespace ks::runs
