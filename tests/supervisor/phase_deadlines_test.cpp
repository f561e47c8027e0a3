// The client's own phase deadlines (core/supervisor/phase_deadlines.h): what a `phase` event announces can
// only shorten a phase, a phase announced again continues its clock, and the scaled phases scale with the
// correctness time the client saw.
#include "core/supervisor/phase_deadlines.h"

#include <gtest/gtest.h>

namespace ks::supervisor {
namespace {

using protocol::Phase;
using Clock = PhaseDeadlines::Clock;

protocol::Request evaluateOnCpu() {
  protocol::Request r;
  r.op = protocol::Op::Evaluate;
  r.task = protocol::TaskSpec{.key = "L1/1", .reference = "import torch\n"};
  r.candidate = protocol::CandidateSpec{.id = "c", .code = "import torch\n"};
  r.options.device = "cpu";
  r.options.trials = 10;
  r.options.warmup = 2;
  return r;
}

Clock::time_point at(double s) {
  return Clock::time_point{} + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

TEST(PhaseDeadlines, NoPhaseNoDeadline) {
  PhaseDeadlines d(evaluateOnCpu(), PhaseLimits{});
  EXPECT_FALSE(d.inPhase());
  EXPECT_FALSE(d.secondsLeft(at(0)));
}

TEST(PhaseDeadlines, AnAnnouncedDeadlineOnlyShortensThePhase) {
  PhaseDeadlines d(evaluateOnCpu(), PhaseLimits{});
  d.enter(Phase::Correctness, 1000000, at(0));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(0)), 300);
  d.enter(Phase::Load, 20, at(0));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(5)), 15);
  PhaseDeadlines none(evaluateOnCpu(), PhaseLimits{});
  none.enter(Phase::Load, 0, at(0));  // nothing announced: the client's limit
  EXPECT_DOUBLE_EQ(*none.secondsLeft(at(0)), 120);
}

TEST(PhaseDeadlines, APhaseAnnouncedAgainContinuesItsClock) {
  PhaseDeadlines d(evaluateOnCpu(), PhaseLimits{});
  d.enter(Phase::Correctness, 300, at(0));
  d.enter(Phase::Correctness, 300, at(100));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(100)), 200);
  EXPECT_DOUBLE_EQ(d.secondsInPhase(at(150)), 150);
  // A build in between has its own budget, and the phase goes on where it stopped.
  d.enter(Phase::Build, 600, at(150));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(150)), 600);
  d.enter(Phase::Correctness, 300, at(400));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(400)), 150);
  d.enter(Phase::Correctness, 300, at(560));
  EXPECT_LE(*d.secondsLeft(at(560)), 0);
}

TEST(PhaseDeadlines, BuildsAddUpToTheirNumberPerRequest) {
  PhaseLimits limits;
  limits.build = 10;
  limits.buildsPerRequest = 3;
  PhaseDeadlines d(evaluateOnCpu(), limits);
  d.enter(Phase::Build, 600, at(0));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(0)), 10);  // each build at most its limit
  d.enter(Phase::Build, 600, at(9));
  d.enter(Phase::Build, 600, at(18));
  d.enter(Phase::Build, 600, at(27));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(27)), 3);  // 30 s in all
  protocol::Request native = evaluateOnCpu();
  native.task->language = CodeLanguage::Cuda;
  PhaseDeadlines n(native, PhaseLimits{});
  n.enter(Phase::Build, 0, at(0));
  EXPECT_DOUBLE_EQ(*n.secondsLeft(at(0)), 1200);
  protocol::Request nativeCandidate = evaluateOnCpu();  // a native candidate the build op builds alone
  nativeCandidate.op = protocol::Op::Build;
  nativeCandidate.candidate->language = CodeLanguage::Cuda;
  PhaseDeadlines c(nativeCandidate, PhaseLimits{});
  c.enter(Phase::Build, 0, at(0));
  EXPECT_DOUBLE_EQ(*c.secondsLeft(at(0)), 1200);
}

TEST(PhaseDeadlines, ScaledPhasesScaleWithTheCorrectnessTimeSeen) {
  PhaseDeadlines d(evaluateOnCpu(), PhaseLimits{});
  d.enter(Phase::Load, 120, at(0));
  d.enter(Phase::Correctness, 300, at(1));
  d.enter(Phase::Probes, 1000000, at(3));  // 2 s of correctness
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(3)), 60 + 3 * 39 * 2);
  d.enter(Phase::Timing, 1000000, at(4));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(4)), 60 + 3 * (2 + 10 + 7) * 2);
  d.enter(Phase::Profile, 1000000, at(5));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(5)), 60 + 3 * 2 * 2);
}

TEST(PhaseDeadlines, TheBuildOpsFirstCallAndAGpuShareHaveTheirOwnLimits) {
  protocol::Request build = evaluateOnCpu();
  build.op = protocol::Op::Build;
  PhaseDeadlines b(build, PhaseLimits{});
  b.enter(Phase::Correctness, 1000000, at(0));
  EXPECT_DOUBLE_EQ(*b.secondsLeft(at(0)), 60);
  protocol::Request shared = evaluateOnCpu();
  shared.options.gpuShare = "/tmp/share.lock";
  PhaseDeadlines s(shared, PhaseLimits{});
  s.enter(Phase::Load, 1000000, at(0));
  EXPECT_DOUBLE_EQ(*s.secondsLeft(at(0)), 420);
}

TEST(PhaseDeadlines, MaxPhaseSecondsCapsEveryEntry) {
  PhaseDeadlines d(evaluateOnCpu(), PhaseLimits{}, 30);
  d.enter(Phase::Correctness, 0, at(0));
  EXPECT_DOUBLE_EQ(*d.secondsLeft(at(0)), 30);
}

}  // namespace
}  // namespace ks::supervisor
