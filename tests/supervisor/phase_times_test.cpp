#include "core/supervisor/phase_times.h"

#include <gtest/gtest.h>

namespace ks::supervisor {
namespace {

using std::chrono::milliseconds;

protocol::Event phase(protocol::Phase p) { return protocol::PhaseEvent{"r1", p, 60}; }

TEST(PhaseTimes, EachPhaseRunsUntilTheNextAndRepeatsAddUp) {
  const auto t0 = PhaseTimes::Clock::time_point{};
  PhaseTimes times(t0);
  times.observe(phase(protocol::Phase::Load), t0 + milliseconds(2000));   // start-up: 2 s
  times.observe(phase(protocol::Phase::Build), t0 + milliseconds(2500));  // load: 0.5 s
  times.observe(protocol::ProgressEvent{"r1", protocol::Phase::Build, 1, 2}, t0 + milliseconds(2600));
  times.observe(phase(protocol::Phase::Load), t0 + milliseconds(6500));         // build: 4 s
  times.observe(phase(protocol::Phase::Correctness), t0 + milliseconds(7000));  // load again: 0.5 s
  const auto j = times.finish(t0 + milliseconds(8250));                          // correctness: 1.25 s

  ASSERT_EQ(j.size(), 5u);
  std::vector<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"start", "load", "build", "correctness", "total"}));
  EXPECT_DOUBLE_EQ(j["start"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(j["load"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(j["build"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(j["correctness"].get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(j["total"].get<double>(), 8.25);
}

TEST(PhaseTimes, NoPhaseAtAllIsAllStartUp) {
  const auto t0 = PhaseTimes::Clock::time_point{};
  const PhaseTimes times(t0);
  const auto j = times.finish(t0 + milliseconds(1500));
  EXPECT_DOUBLE_EQ(j["start"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(j["total"].get<double>(), 1.5);
  EXPECT_EQ(j.size(), 2u);
}

TEST(PhaseTimes, FinishingTwiceGivesTheSameAnswer) {
  const auto t0 = PhaseTimes::Clock::time_point{};
  PhaseTimes times(t0);
  times.observe(phase(protocol::Phase::Timing), t0 + milliseconds(100));
  EXPECT_EQ(times.finish(t0 + milliseconds(300)), times.finish(t0 + milliseconds(300)));
}

}  // namespace
}  // namespace ks::supervisor
