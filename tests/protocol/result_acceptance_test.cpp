// The one acceptance rule for a runner's result (core/protocol/result_acceptance.h) and the clock it is
// checked against (request_clock.h): complete results that agree with the observed wall time pass; an
// incomplete result, one that says two things, and timing that contradicts the clock do not.
#include "core/protocol/result_acceptance.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "core/protocol/json_codec.h"

using namespace ks::protocol;

namespace {

using Clock = std::chrono::steady_clock;

Clock::time_point at(double s) {
  return Clock::time_point{} + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s));
}

// A result shaped like the CPU runner's for the engine tests' linear+relu pair: `trials` timed trials of
// `refMs` and `candMs`, `warmup` warm-up calls, inputs of `inputBytes`.
EvaluateResult evaluation(int trials, double refMs, double candMs, int warmup = 2, double inputBytes = 512) {
  EvaluateResult r;
  r.codeHash = "sha256:00";
  r.device = "cpu";
  r.environment.device = "cpu";
  r.environment.deviceName = "test cpu";
  r.environment.torch = "2.0";
  r.environment.python = "3.11";
  r.correctness.passed = true;
  r.correctness.seeds = {{42, true, 0, 0, 1e-2, 1e-2, ""}, {43, true, 0, 0, 1e-2, 1e-2, ""}};
  Timing t;
  t.clock = "wall";
  t.trials = trials;
  t.warmup = warmup;
  t.reference.trialsMs.assign(trials, refMs);
  t.candidate.trialsMs.assign(trials, candMs);
  t.reference.medianMs = t.reference.minMs = t.reference.maxMs = refMs;
  t.candidate.medianMs = t.candidate.minMs = t.candidate.maxMs = candMs;
  t.speedup = refMs / candMs;
  r.timing = t;
  r.probes = {{"timing", {{"bandwidth_floor", {{"applicable", false}, {"input_bytes", inputBytes}}}}}};
  return r;
}

ResultEvent event(const EvaluateResult& r) { return ResultEvent{"7", r.correctness.passed, toJson(r)}; }

// What a judge sees of an honest request: load at 0, timing entered at `timingStart`, progress every
// iteration spread evenly until `timingEnd`, the answer then.
ObservedRequest honestClock(int iterations, double timingStart, double timingEnd) {
  RequestClock clock(at(0));
  clock.observe(PhaseEvent{"7", Phase::Load, 60}, at(0.01));
  clock.observe(PhaseEvent{"7", Phase::Timing, 60}, at(timingStart));
  for (int i = 1; i <= iterations; ++i)
    clock.observe(ProgressEvent{"7", Phase::Timing, i, iterations},
                  at(timingStart + (timingEnd - timingStart) * i / iterations));
  return clock.finish(at(timingEnd + 0.001));
}

}  // namespace

TEST(RequestClock, SpansTheTimingPhaseAndKeepsItsProgressSinceItWasLastEntered) {
  RequestClock clock(at(10));
  clock.observe(PhaseEvent{"7", Phase::Correctness, 60}, at(10.5));
  clock.observe(ProgressEvent{"7", Phase::Correctness, 1, 2}, at(10.6));  // not timing: not kept
  clock.observe(PhaseEvent{"7", Phase::Timing, 60}, at(11));
  clock.observe(ProgressEvent{"7", Phase::Timing, 1, 12}, at(11.1));
  clock.observe(PhaseEvent{"7", Phase::Build, 60}, at(11.2));  // a build interrupts the timing phase
  clock.observe(PhaseEvent{"7", Phase::Timing, 60}, at(13.2));
  clock.observe(ProgressEvent{"7", Phase::Timing, 2, 12}, at(13.3));
  clock.observe(PhaseEvent{"7", Phase::Profile, 60}, at(14.2));
  const ObservedRequest seen = clock.finish(at(15));
  EXPECT_NEAR(seen.totalS, 5, 1e-9);
  EXPECT_TRUE(seen.timingSeen);
  EXPECT_NEAR(seen.timingS, 14.2 - 11, 1e-9);  // the build inside it included
  ASSERT_EQ(seen.timingProgress.size(), 1u);
  EXPECT_EQ(seen.timingProgress[0].done, 2);
  EXPECT_NEAR(seen.timingProgress[0].atS, 3.3, 1e-9);
}

TEST(ResultAcceptance, AnHonestResultIsAccepted) {
  // 10 trials of 2.0 + 0.8 ms and 2 warm-up calls in 0.2 s of timing phase (the CPU tests' order of size).
  const EvaluateResult r = evaluation(10, 2.0, 0.8);
  EXPECT_EQ(rejectResult(Op::Evaluate, event(r), honestClock(12, 1.0, 1.2)), std::nullopt);
  // The same with the timing phase 20x slower than the trials claim (a loaded machine): still accepted.
  EXPECT_EQ(rejectResult(Op::Evaluate, event(r), honestClock(12, 1.0, 1.0 + 12 * 2.8e-3 * 20)), std::nullopt);
  // No progress events at all (a runner that sends none): only the upper bound applies.
  RequestClock quiet(at(0));
  quiet.observe(PhaseEvent{"7", Phase::Timing, 60}, at(0.1));
  EXPECT_EQ(rejectResult(Op::Evaluate, event(r), quiet.finish(at(5))), std::nullopt);
}

TEST(ResultAcceptance, LargeInputsCloneBeforeEveryCallWithoutBeingTampering) {
  // reduction_large of the hack corpus: a 512 MiB input cloned before every call on the CPU, and a cached
  // candidate that answers in 0.01 ms: 0.3 s per clone is honest overhead, not a contradiction.
  const EvaluateResult r = evaluation(10, 60, 0.01, 2, 512.0 * 1024 * 1024);
  EXPECT_EQ(rejectResult(Op::Evaluate, event(r), honestClock(12, 1.0, 1.0 + 12 * (0.06 + 2 * 0.3))), std::nullopt);
}

TEST(ResultAcceptance, TimingFasterThanTheWallClockAllowsIsTampering) {
  // The example: 100 trials of 0.01 ms (each model) after 2 s of timing phase.
  const EvaluateResult r = evaluation(100, 0.01, 0.01, 5);
  const auto why = rejectResult(Op::Evaluate, event(r), honestClock(105, 1.0, 3.0));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("per iteration"), std::string::npos) << *why;
  EXPECT_NE(why->find("by this clock"), std::string::npos) << *why;
}

TEST(ResultAcceptance, ClaimedCallsCannotExceedTheObservedTimingPhase) {
  // 50 trials of 30 + 30 ms is 3 s of calls, in a timing phase of 0.5 s.
  const EvaluateResult r = evaluation(50, 30, 30);
  const auto why = rejectResult(Op::Evaluate, event(r), honestClock(52, 1.0, 1.5));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("3.000 s of timed calls"), std::string::npos) << *why;
  // A result with timing but no timing phase seen at all.
  RequestClock none(at(0));
  none.observe(PhaseEvent{"7", Phase::Correctness, 60}, at(0.1));
  const auto unseen = rejectResult(Op::Evaluate, event(evaluation(10, 0.1, 0.1)), none.finish(at(0.2)));
  ASSERT_TRUE(unseen);
  EXPECT_NE(unseen->find("no timing phase was seen"), std::string::npos) << *unseen;
}

TEST(ResultAcceptance, ProgressThatDisagreesWithTheClaimedTrialsIsTampering) {
  const EvaluateResult r = evaluation(10, 2.0, 0.8);
  const auto why = rejectResult(Op::Evaluate, event(r), honestClock(30, 1.0, 1.1));
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("1/30"), std::string::npos) << *why;
}

TEST(ResultAcceptance, AnIncompleteOrSelfContradictingEvaluationIsNotAccepted) {
  const ObservedRequest seen = honestClock(12, 1.0, 1.2);
  // The incomplete result: ok with half a payload.
  const ResultEvent half{"7", true, Json{{"code_hash", "sha256:00"}, {"correctness", {{"passed", true}}}}};
  const auto incomplete = rejectResult(Op::Evaluate, half, seen);
  ASSERT_TRUE(incomplete);
  EXPECT_NE(incomplete->find("does not read as an evaluation"), std::string::npos) << *incomplete;

  EvaluateResult r = evaluation(10, 2.0, 0.8);
  ResultEvent notOk = event(r);
  notOk.ok = false;
  EXPECT_TRUE(rejectResult(Op::Evaluate, notOk, seen));

  r.timing->candidate.trialsMs.pop_back();
  const auto shortTrials = rejectResult(Op::Evaluate, event(r), seen);
  ASSERT_TRUE(shortTrials);
  EXPECT_NE(shortTrials->find("has 9 values for 10 trials"), std::string::npos) << *shortTrials;

  EvaluateResult noBytes = evaluation(10, 2.0, 0.8);
  noBytes.probes = Json::object();
  EXPECT_TRUE(rejectResult(Op::Evaluate, event(noBytes), seen));

  EvaluateResult seedFailed = evaluation(10, 2.0, 0.8);
  seedFailed.correctness.seeds[1].passed = false;
  EXPECT_TRUE(rejectResult(Op::Evaluate, event(seedFailed), seen));

  EvaluateResult correctUntimed = evaluation(10, 2.0, 0.8);
  correctUntimed.timing.reset();
  EXPECT_TRUE(rejectResult(Op::Evaluate, event(correctUntimed), seen));

  EvaluateResult incorrect = evaluation(10, 2.0, 0.8);
  incorrect.correctness.passed = false;
  incorrect.correctness.seeds[0].passed = false;
  incorrect.timing.reset();
  EXPECT_EQ(rejectResult(Op::Evaluate, event(incorrect), seen), std::nullopt);
}

TEST(ResultAcceptance, OtherOpsNeedTheirCompletePayload) {
  const ObservedRequest seen = RequestClock(at(0)).finish(at(2));
  EXPECT_TRUE(rejectResult(Op::Hello, ResultEvent{"h", true, Json{{"environment", {{"runner", "x"}}}}}, seen));
  Environment env;
  env.device = "cpu";
  env.deviceName = "cpu";
  env.torch = "2.0";
  env.python = "3.11";
  EXPECT_EQ(rejectResult(Op::Hello, ResultEvent{"h", true, helloPayload(env)}, seen), std::nullopt);
  EXPECT_TRUE(rejectResult(Op::Build, ResultEvent{"b", true, Json::object()}, seen));
  WarmUpResult warm{"cpu", 1.5, {{"cpu_matmul", 1.0}, {"cpu_conv2d", 0.5}}};
  EXPECT_EQ(rejectResult(Op::WarmUp, ResultEvent{"w", true, toJson(warm)}, seen), std::nullopt);
  warm.seconds = 30;  // more than the request's 2 s
  EXPECT_TRUE(rejectResult(Op::WarmUp, ResultEvent{"w", true, toJson(warm)}, seen));
  EXPECT_TRUE(rejectResult(Op::Build, ResultEvent{"b", false, Json::object()}, seen));
  EXPECT_EQ(rejectResult(Op::Shutdown, ResultEvent{"s", true, Json::object()}, seen), std::nullopt);
}

TEST(ResultAcceptance, TheTamperingErrorQuotesTheEvidenceAndEndsTheRunner) {
  const ErrorEvent e = tamperingError("7", "its executor wrote a second answer: {}", "timing");
  EXPECT_EQ(e.id, "7");
  EXPECT_EQ(e.error.kind, ErrorKind::Tampering);
  EXPECT_EQ(e.error.message, "kscope-runner's answer was not accepted: its executor wrote a second answer: {}");
  EXPECT_EQ(e.error.phase, "timing");
  EXPECT_TRUE(e.error.runnerExits);
  const Decoded<Event> back = decodeEvent(encodeEvent(e));
  ASSERT_TRUE(back.value) << back.error;
  EXPECT_EQ(std::get<ErrorEvent>(*back.value), e);
  EXPECT_NE(encodeEvent(e).find("\"kind\":\"tampering\""), std::string::npos);
}
