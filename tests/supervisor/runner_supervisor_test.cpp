// RunnerSupervisor against fake_runner.py, a protocol-speaking stand-in that hangs, crashes, exits, floods
// stderr, prints garbage and eats memory on request. Deadlines are short so the suite takes seconds.
#include "core/supervisor/runner_supervisor.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "core/supervisor/interrupt_cancel.h"
#include "tests/supervisor/fake_runner_support.h"

namespace ks::supervisor {
namespace {

using namespace fake;
using protocol::ErrorKind;

// Alive: exists and is not a zombie (an orphan's zombie lingers until its new parent reaps it).
bool processExists(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  auto close = line.rfind(')');
  return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
}

TEST(RunnerSupervisor, DeliversEveryEventInOrderAndTheResult) {
  RunnerSupervisor s(fakeRunner());
  std::vector<std::string> seen;
  RequestOutcome o = s.request(evaluate("ok"), [&](const protocol::Event& e) {
    if (std::holds_alternative<protocol::PhaseEvent>(e)) seen.push_back("phase");
    if (std::holds_alternative<protocol::ProgressEvent>(e)) seen.push_back("progress");
    if (std::holds_alternative<protocol::ResultEvent>(e)) seen.push_back("result");
  });
  ASSERT_TRUE(o.isResult()) << o.error()->error.message << "\n" << o.error()->error.stderrTail;
  EXPECT_EQ(seen, (std::vector<std::string>{"phase", "progress", "result"}));
  ASSERT_TRUE(s.runnerInfo());
  EXPECT_EQ(s.runnerInfo()->runner, "fake-runner 1");
  EXPECT_EQ(runnerPid(o), s.runnerInfo()->pid);
  // One runner serves request after request.
  EXPECT_EQ(runnerPid(s.request(evaluate("ok"))), runnerPid(o));
}

TEST(RunnerSupervisor, EachRequestGetsItsOwnScratchFolderRemovedAfterwards) {
  RunnerSupervisor s(fakeRunner());
  protocol::Request r = evaluate("ok");
  r.id = "job-42";
  RequestOutcome o = s.request(r);
  ASSERT_TRUE(o.isResult());
  const std::string scratch = o.result()->result.value("scratch", "");
  EXPECT_EQ(scratch, (fakeRunner().scratchRoot / "job-42").string());
  EXPECT_FALSE(std::filesystem::exists(scratch));
  const std::string cwd = o.result()->result.value("cwd", "");
  EXPECT_EQ(std::filesystem::path(cwd).parent_path(), fakeRunner().scratchRoot);
}

TEST(RunnerSupervisor, PhaseDeadlineKillsAHungRunnerAndTheNextRequestGetsANewOne) {
  RunnerSupervisor s(fakeRunner());
  const auto before = runnerPid(s.request(evaluate("ok")));
  const auto start = Clock::now();
  RequestOutcome o = s.request(evaluate("hang-in-timing"));
  const double took = secondsSince(start);
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Timeout);
  EXPECT_EQ(o.error()->error.message, "timed out after 0.5 s while timing");
  EXPECT_EQ(o.error()->error.phase, "timing");
  EXPECT_GE(took, 0.5);
  EXPECT_LT(took, 3.0);
  EXPECT_FALSE(processExists(pid_t(before)));

  RequestOutcome next = s.request(evaluate("ok"));
  ASSERT_TRUE(next.isResult());
  EXPECT_NE(runnerPid(next), before);
}

TEST(RunnerSupervisor, MaxPhaseSecondsShortensALongerAnnouncedDeadline) {
  SupervisorOptions options = fakeRunner();
  options.maxPhaseSeconds = 0.5;
  RunnerSupervisor s(options);
  const auto start = Clock::now();
  RequestOutcome o = s.request(evaluate("sleep"));  // announces 60 s of timing, then sleeps
  const double took = secondsSince(start);
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Timeout);
  EXPECT_EQ(o.error()->error.message, "timed out after 0.5 s while timing");
  EXPECT_LT(took, 5.0);
  EXPECT_TRUE(s.request(evaluate("ok")).isResult());  // a deadline longer than the phase needs is harmless
}

// The runner's announced deadline is whatever its executor wrote, which a program can forge: the client's own
// limit ends the phase.
TEST(RunnerSupervisor, AnAnnouncedDeadlineLongerThanTheClientsLimitIsCut) {
  SupervisorOptions options = fakeRunner();
  options.phaseLimits.correctness = 0.5;
  RunnerSupervisor s(options);
  const auto start = Clock::now();
  RequestOutcome o = s.request(evaluate("forged-deadline"));  // announces 1 000 000 s, answers after 20 s
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Timeout);
  EXPECT_EQ(o.error()->error.message, "timed out after 0.5 s while checking correctness");
  EXPECT_LT(secondsSince(start), 15.0);
}

// Announcing a phase again does not restart its clock: the phase's time adds up over the request.
TEST(RunnerSupervisor, AnnouncingAPhaseAgainDoesNotRestartItsClock) {
  SupervisorOptions options = fakeRunner();
  options.phaseLimits.correctness = 1.5;
  RunnerSupervisor s(options);
  const auto start = Clock::now();
  RequestOutcome o = s.request(evaluate("reannounce"));  // correctness with 5 s every 0.2 s, answers after 20 s
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Timeout);
  EXPECT_EQ(o.error()->error.message, "timed out after 1.5 s while checking correctness");
  EXPECT_LT(secondsSince(start), 15.0);
}

TEST(RunnerSupervisor, AKilledRunnerTakesItsChildrenWithIt) {
  RunnerSupervisor s(fakeRunner());
  RequestOutcome o = s.request(evaluate("hang-with-child"));
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Timeout);
  std::smatch m;
  const std::string tail = o.error()->error.stderrTail;
  ASSERT_TRUE(std::regex_search(tail, m, std::regex(R"(child pid (\d+))"))) << tail;
  const pid_t child = pid_t(std::stoi(m[1]));
  for (int i = 0; i < 100 && processExists(child); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(processExists(child)) << "the runner's child survived the kill of its process group";
}

TEST(RunnerSupervisor, SilenceBeforeAnyPhaseHitsTheAnswerDeadline) {
  SupervisorOptions o = fakeRunner();
  o.answerDeadlineSeconds = 0.4;
  RunnerSupervisor s(o);
  protocol::Request r = evaluate("silent");
  r.id = "7";
  RequestOutcome out = s.request(r);
  ASSERT_NE(out.error(), nullptr);
  EXPECT_EQ(out.error()->error.kind, ErrorKind::Timeout);
  EXPECT_EQ(out.error()->error.message, "timed out after 0.4 s before answering request 7");
}

TEST(RunnerSupervisor, CrashIsReportedWithSignalAndTheLastStderrLines) {
  RunnerSupervisor s(fakeRunner());
  RequestOutcome o = s.request(evaluate("segfault"));
  ASSERT_NE(o.error(), nullptr);
  const protocol::ErrorInfo& e = o.error()->error;
  EXPECT_EQ(e.kind, ErrorKind::Crash);
  ASSERT_TRUE(e.signal.has_value());
  EXPECT_EQ(*e.signal, SIGSEGV);
  EXPECT_EQ(e.message, "kscope-runner was killed by SIGSEGV (segmentation fault) while checking correctness");
  EXPECT_EQ(e.phase, "correctness");
  // The last 30 lines: 29 of the 40 "before" lines and the last words.
  EXPECT_NE(e.stderrTail.find("last words"), std::string::npos);
  EXPECT_NE(e.stderrTail.find("before the crash 39"), std::string::npos);
  EXPECT_EQ(e.stderrTail.find("before the crash 10\n"), std::string::npos);
  EXPECT_EQ(std::count(e.stderrTail.begin(), e.stderrTail.end(), '\n'), 29);

  EXPECT_TRUE(s.request(evaluate("ok")).isResult());
}

TEST(RunnerSupervisor, ExitStatusIsReported) {
  RunnerSupervisor s(fakeRunner());
  RequestOutcome o = s.request(evaluate("exit3"));
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Crash);
  EXPECT_EQ(o.error()->error.exitStatus, 3);
  EXPECT_FALSE(o.error()->error.signal.has_value());
  EXPECT_EQ(o.error()->error.message, "kscope-runner exited with status 3 while loading the programs");
  EXPECT_NE(o.error()->error.stderrTail.find("SystemExit: 3"), std::string::npos);
  EXPECT_TRUE(s.request(evaluate("ok")).isResult());
}

// The runner's stdout carries its judge's lines only, so anything else on it is tampering: the request ends
// with a `tampering` error quoting it, and the runner is replaced.
TEST(RunnerSupervisor, GarbageAndOtherRequestsEventsOnStdoutAreTampering) {
  RunnerSupervisor s(fakeRunner());
  const auto before = runnerPid(s.request(evaluate("ok")));
  std::vector<std::string> ids;
  protocol::Request r = evaluate("garbage");
  r.id = "mine";
  RequestOutcome o = s.request(r, [&](const protocol::Event& e) {
    if (auto* res = std::get_if<protocol::ResultEvent>(&e)) ids.push_back(res->id);
  });
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->id, "mine");
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Tampering);
  EXPECT_NE(o.error()->error.message.find("this is not JSON"), std::string::npos) << o.error()->error.message;
  EXPECT_TRUE(ids.empty());
  const auto after = runnerPid(s.request(evaluate("ok")));
  EXPECT_NE(after, 0);
  EXPECT_NE(after, before);
}

TEST(RunnerSupervisor, AnIncompleteResultIsTamperingNotACorrectOne) {
  RunnerSupervisor s(fakeRunner());
  std::vector<std::string> ends;
  RequestOutcome o = s.request(evaluate("incomplete"), [&](const protocol::Event& e) {
    if (std::holds_alternative<protocol::ResultEvent>(e)) ends.push_back("result");
    if (std::holds_alternative<protocol::ErrorEvent>(e)) ends.push_back("error");
  });
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Tampering);
  EXPECT_NE(o.error()->error.message.find("does not read as an evaluation"), std::string::npos)
      << o.error()->error.message;
  EXPECT_EQ(ends, std::vector<std::string>{"error"});  // the sink never saw the result
}

TEST(RunnerSupervisor, TimingThatContradictsOurClockIsTampering) {
  RunnerSupervisor s(fakeRunner());
  RequestOutcome o = s.request(evaluate("absurd-timing"));
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Tampering);
  EXPECT_EQ(o.error()->error.phase, "timing");
  EXPECT_NE(o.error()->error.message.find("per iteration"), std::string::npos) << o.error()->error.message;
  // The same runner shape with honest timing is accepted (the fake's other programs are timed honestly).
  RequestOutcome honest = s.request(evaluate("fine"));
  ASSERT_TRUE(honest.isResult()) << honest.error()->error.message;
  EXPECT_TRUE(honest.result()->ok);
}

TEST(RunnerSupervisor, OutputAfterTheAnswerGetsTheRunnerReplaced) {
  RunnerSupervisor s(fakeRunner());
  for (const char* behaviour : {"stray", "two-results"}) {
    RequestOutcome first = s.request(evaluate(behaviour));
    ASSERT_TRUE(first.isResult()) << behaviour;  // one answer, complete: accepted as it came
    const auto pid = s.runnerInfo()->pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the extra line has arrived
    RequestOutcome next = s.request(evaluate("ok"));
    ASSERT_TRUE(next.isResult()) << behaviour;
    EXPECT_NE(runnerPid(next), pid) << behaviour << ": the runner that spoke between requests served again";
  }
}

TEST(RunnerSupervisor, AFloodOfStderrNeitherBlocksTheRunnerNorGrowsWithoutBound) {
  RunnerSupervisor s(fakeRunner());
  const auto start = Clock::now();
  RequestOutcome o = s.request(evaluate("flood"));
  ASSERT_TRUE(o.isResult()) << o.error()->error.message;
  EXPECT_LT(secondsSince(start), 10.0);
}

TEST(RunnerSupervisor, CancelFromAnotherThreadEndsTheRequestPromptly) {
  RunnerSupervisor s(fakeRunner());
  // Cancel once the runner has announced its timing phase, however long a loaded machine takes to start
  // it (a fixed sleep raced the start-up under CI load); give up waiting after 20 s so a missing phase
  // event fails the assertions below instead of hanging the test.
  std::atomic<bool> timing{false};
  std::atomic<Clock::rep> cancelledAt{0};
  std::thread canceller([&] {
    const auto give_up = Clock::now() + std::chrono::seconds(20);
    while (!timing && Clock::now() < give_up) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancelledAt = Clock::now().time_since_epoch().count();
    s.cancel();
  });
  RequestOutcome o = s.request(evaluate("sleep"), [&](const protocol::Event& e) {
    const auto* phase = std::get_if<protocol::PhaseEvent>(&e);
    if (phase != nullptr && phase->phase == protocol::Phase::Timing) timing = true;
  });
  const auto ended = Clock::now();
  canceller.join();
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Cancelled);
  EXPECT_EQ(o.error()->error.message, "cancelled while timing");
  const auto cancelled = Clock::time_point(Clock::duration(cancelledAt.load()));
  EXPECT_LT(std::chrono::duration<double>(ended - cancelled).count(), 3.0);
  EXPECT_TRUE(s.request(evaluate("ok")).isResult());  // a cancel does not leak into the next request
}

TEST(RunnerSupervisor, InterruptSignalCancelsTheRequestInsteadOfEndingUs) {
  RunnerSupervisor s(fakeRunner());
  InterruptCancel interrupts(s);
  std::thread interrupter([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    kill(getpid(), SIGINT);
  });
  RequestOutcome o = s.request(evaluate("sleep"));
  interrupter.join();
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Cancelled);
  EXPECT_TRUE(interrupts.interrupted());
}

TEST(RunnerSupervisor, ResidentMemoryOverTheLimitIsKilled) {
  SupervisorOptions opts = fakeRunner();
  opts.memoryLimit = MemoryLimit{200u << 20, false};
  RunnerSupervisor s(opts);
  RequestOutcome o = s.request(evaluate("memory"));
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Memory);
  EXPECT_NE(o.error()->error.message.find("more than the memory limit of 200 MiB, while timing"),
            std::string::npos)
      << o.error()->error.message;
  EXPECT_TRUE(s.request(evaluate("ok")).isResult());
}

TEST(RunnerSupervisor, AddressSpaceLimitForACpuRunnerIsReportedAsMemory) {
  SupervisorOptions opts = fakeRunner();
  opts.memoryLimit = MemoryLimit{300u << 20, true};
  RunnerSupervisor s(opts);
  RequestOutcome o = s.request(evaluate("memory"));
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Memory) << o.error()->error.message;
  EXPECT_NE(o.error()->error.stderrTail.find("MemoryError"), std::string::npos)
      << o.error()->error.stderrTail;
}

TEST(RunnerSupervisor, ARunnerThatSaysItCannotGoOnIsReplaced) {
  RunnerSupervisor s(fakeRunner());
  const auto before = runnerPid(s.request(evaluate("ok")));
  RequestOutcome o = s.request(evaluate("unusable"));
  ASSERT_NE(o.error(), nullptr);
  EXPECT_EQ(o.error()->error.kind, ErrorKind::Runtime);  // the runner's own report, passed on
  EXPECT_TRUE(o.error()->error.runnerExits);
  RequestOutcome next = s.request(evaluate("ok"));
  ASSERT_TRUE(next.isResult());
  EXPECT_NE(runnerPid(next), before);
}

TEST(RunnerSupervisor, ARunnerThatDiedBetweenRequestsIsReplacedSilently) {
  RunnerSupervisor s(fakeRunner());
  const auto before = runnerPid(s.request(evaluate("ok")));
  ASSERT_GT(before, 0);
  kill(pid_t(before), SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  RequestOutcome next = s.request(evaluate("ok"));  // no SIGPIPE, no crash report for a request it never saw
  ASSERT_TRUE(next.isResult()) << next.error()->error.message;
  EXPECT_NE(runnerPid(next), before);
}

TEST(RunnerSupervisor, DestructionShutsTheRunnerDown) {
  std::int64_t pid = 0;
  {
    RunnerSupervisor s(fakeRunner());
    pid = runnerPid(s.request(evaluate("ok")));
  }
  EXPECT_FALSE(processExists(pid_t(pid)));
}

TEST(RunnerSupervisorStart, NoReadyLineWithinTheStartDeadline) {
  SupervisorOptions o = fakeRunner({{"FAKE_RUNNER_START", "hang"}});
  o.startDeadlineSeconds = 0.5;
  RunnerSupervisor s(o);
  RequestOutcome out = s.request(evaluate("ok"));
  ASSERT_NE(out.error(), nullptr);
  EXPECT_EQ(out.error()->error.kind, ErrorKind::Timeout);
  EXPECT_NE(out.error()->error.message.find("timed out after 0.5 s waiting for kscope-runner to start"),
            std::string::npos)
      << out.error()->error.message;
}

TEST(RunnerSupervisorStart, ProtocolMismatchIsRefused) {
  RunnerSupervisor s(fakeRunner({{"FAKE_RUNNER_START", "protocol2"}}));
  RequestOutcome out = s.request(evaluate("ok"));
  ASSERT_NE(out.error(), nullptr);
  EXPECT_EQ(out.error()->error.kind, ErrorKind::Protocol);
  EXPECT_NE(out.error()->error.message.find("speaks protocol 2"), std::string::npos);
}

TEST(RunnerSupervisorStart, CrashBeforeReadyShowsItsStderr) {
  RunnerSupervisor s(fakeRunner({{"FAKE_RUNNER_START", "crash"}}));
  RequestOutcome out = s.request(evaluate("ok"));
  ASSERT_NE(out.error(), nullptr);
  EXPECT_EQ(out.error()->error.kind, ErrorKind::Crash);
  EXPECT_EQ(out.error()->error.exitStatus, 1);
  EXPECT_NE(out.error()->error.stderrTail.find("libtorch not found"), std::string::npos);
}

TEST(RunnerSupervisorStart, MissingExecutableIsAnErrorNotAnException) {
  SupervisorOptions o = fakeRunner();
  o.runner = "/nonexistent/kscope-runner";
  RunnerSupervisor s(o);
  std::vector<int> events;
  RequestOutcome out = s.request(evaluate("ok"), [&](const protocol::Event&) { events.push_back(1); });
  ASSERT_NE(out.error(), nullptr);
  EXPECT_EQ(out.error()->error.kind, ErrorKind::Crash);
  EXPECT_NE(out.error()->error.message.find("/nonexistent/kscope-runner"), std::string::npos);
  EXPECT_EQ(events.size(), 1u);  // the sink sees the outcome too
}

}  // namespace
}  // namespace ks::supervisor
