// RunnerSupervisor against the built kscope-runner (its judge and executor, docs/runner-protocol.md, "Threat
// model"): a hostile program's forged verdict ends as tampering and the next request gets a fresh runner; a
// forged phase deadline does not lengthen the phase; the memory limit is measured on the executor, the
// process that runs programs. Skipped in a build without the runner.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/protocol/json_codec.h"
#include "core/supervisor/runner_supervisor.h"
#include "tests/supervisor/fake_runner_support.h"
#include "ks_test_paths.h"

namespace ks::supervisor {
namespace {

#ifdef KSCOPE_RUNNER_BINARY
const std::filesystem::path kRunner = KSCOPE_RUNNER_BINARY;
#else
const std::filesystem::path kRunner;
#endif

#define REQUIRE_RUNNER() \
  if (kRunner.empty()) GTEST_SKIP() << "this build has no kscope-runner"

std::string hostileFile(const std::string& name) {
  std::ifstream in(std::filesystem::path(KS_SOURCE_DIR) / "tests" / "hostile" / name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The reference as a candidate (an honest one); `forward` gets `before` ahead of its return line.
std::string candidate(const std::string& before = "") {
  std::string code = hostileFile("reference.py");
  code.replace(code.find("class Model("), 12, "class ModelNew(");
  code.replace(code.find("        return torch.relu"), 8, before + "        ");
  return code;
}

SupervisorOptions realRunner() {
  SupervisorOptions o = fake::fakeRunner();
  o.runner = kRunner;
  o.startDeadlineSeconds = 120;
  o.answerDeadlineSeconds = 120;
  return o;
}

protocol::Request evaluate(const std::string& id, const std::string& candidate) {
  protocol::Request r;
  r.id = id;
  r.op = protocol::Op::Evaluate;
  r.task = protocol::TaskSpec{.key = "hostile/" + id, .reference = hostileFile("reference.py")};
  r.candidate = protocol::CandidateSpec{.id = id, .code = candidate};
  r.options.device = "cpu";
  r.options.seeds = 2;
  r.options.trials = 5;
  r.options.warmup = 1;
  return r;
}

TEST(RealRunner, AForgedVerdictIsTamperingAndTheNextRequestGetsAFreshRunner) {
  REQUIRE_RUNNER();
  RunnerSupervisor s(realRunner());
  std::vector<std::string> ends;
  const RequestOutcome forged = s.request(evaluate("forge", hostileFile("forge_result_every_fd.py")),
                                          [&](const protocol::Event& e) {
                                            if (std::holds_alternative<protocol::ResultEvent>(e)) ends.push_back("result");
                                            if (std::holds_alternative<protocol::ErrorEvent>(e)) ends.push_back("error");
                                          });
  ASSERT_NE(forged.error(), nullptr) << protocol::encodeEvent(std::get<protocol::ResultEvent>(forged.end));
  EXPECT_EQ(forged.error()->error.kind, protocol::ErrorKind::Tampering) << forged.error()->error.message;
  EXPECT_EQ(ends, std::vector<std::string>{"error"});
  const RequestOutcome honest = s.request(evaluate("honest", candidate()));
  ASSERT_TRUE(honest.isResult()) << honest.error()->error.message << "\n" << honest.error()->error.stderrTail;
  EXPECT_TRUE(honest.result()->ok);
}

// A program cannot lengthen its own deadline (tests/hostile/forge_phase_deadline.py): its first call hangs
// for 40 s while it writes a `correctness` phase event with a deadline of 1 000 000 s to the judge's socket
// every 2 s. The client's own limit on correctness (10 s here) ends it as a timeout; a client that took the
// announced deadline waited out the hang and reported the candidate correct.
TEST(RealRunner, AForgedPhaseDeadlineNeitherLengthensNorRestartsThePhase) {
  REQUIRE_RUNNER();
  SupervisorOptions o = realRunner();
  o.phaseLimits.correctness = 10;
  RunnerSupervisor s(o);
  const RequestOutcome out = s.request(evaluate("deadline", hostileFile("forge_phase_deadline.py")));
  ASSERT_NE(out.error(), nullptr) << "the hang was waited out, and the candidate answered";
  EXPECT_EQ(out.error()->error.kind, protocol::ErrorKind::Timeout) << out.error()->error.message;
  EXPECT_EQ(out.error()->error.message, "timed out after 10 s while checking correctness");
}

TEST(RealRunner, TheMemoryLimitIsMeasuredOnTheExecutor) {
  REQUIRE_RUNNER();
  SupervisorOptions o = realRunner();
  o.memoryLimit = MemoryLimit{700u << 20, false};  // resident memory only: no RLIMIT_AS to fail first
  RunnerSupervisor s(o);
  const std::string hoarder = "HOARD = []\n" + candidate("        HOARD.append(b'\\x01' * (900 << 20))\n"
                                                         "        import time\n        time.sleep(60)\n");
  const RequestOutcome o2 = s.request(evaluate("hoard", hoarder));
  ASSERT_NE(o2.error(), nullptr);
  EXPECT_EQ(o2.error()->error.kind, protocol::ErrorKind::Memory) << o2.error()->error.message;
}

}  // namespace
}  // namespace ks::supervisor
