#pragma once
// Where the wall time of one request went, phase by phase, as a client sees it: from the request until the
// runner's first `phase` event ("start": starting the runner when none was up, and reading the request),
// then each phase until the next one or the end. A phase entered twice (load, build, load) adds up.
// Answers "why did this re-time take 12 s" without a profiler; `kscope run --json` and `kscope batch`
// write it as `phase_seconds`.
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/protocol/events.h"

namespace ks::supervisor {

class PhaseTimes {
 public:
  using Clock = std::chrono::steady_clock;

  explicit PhaseTimes(Clock::time_point start = Clock::now());

  // Every event of the request, in order; only `phase` events matter.
  void observe(const protocol::Event& event, Clock::time_point at = Clock::now());

  // {"start": s, "<phase>": s, ... (in order of first entry), "total": s}, closing the open phase at `end`.
  nlohmann::ordered_json finish(Clock::time_point end = Clock::now()) const;

 private:
  Clock::time_point start_, since_;
  std::string current_ = "start";
  std::vector<std::pair<std::string, double>> seconds_;
  void add(const std::string& phase, double s);
};

}  // namespace ks::supervisor
