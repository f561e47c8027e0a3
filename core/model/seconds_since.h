#pragma once
// Seconds elapsed on the steady clock since a point taken from it: build times, runner lifetimes and
// measurement phases all report their durations through this one helper.
#include <chrono>

namespace ks {

inline double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace ks
