// The store row every client writes for a runner's answer, and the evaluate options from the user's choices.
#include "core/runs/result_row.h"

#include <gtest/gtest.h>

#include "core/hash/sha256.h"
#include "core/protocol/json_codec.h"
#include "core/runs/evaluate_options.h"

namespace ks::runs {
namespace {

using Json = nlohmann::ordered_json;

const RunSubject kRowSubject{"runs/diag.jsonl", "L1/12", "r2", "class ModelNew: pass\n"};

// A correct evaluation timed at `speedup`, as the runner writes it.
protocol::EvaluateResult timedResult(const std::string& codeHash, double speedup) {
  protocol::EvaluateResult r;
  r.codeHash = codeHash;
  r.device = "cuda";
  r.environment.device = "cuda";
  r.environment.deviceName = "NVIDIA H100";
  r.correctness.passed = true;
  r.correctness.seeds = {{.seed = 42, .passed = true}};
  r.timing = protocol::Timing{.clock = "cuda-events", .trials = 1, .speedup = speedup};
  return r;
}

TEST(ResultRow, ResultEventGivesOutcomeSpeedupAndTheRunnersDeviceAndHash) {
  const protocol::ResultEvent end{"1", true, protocol::toJson(timedResult("sha256:abc", 13.1))};
  const Json event = Json::parse(protocol::encodeEvent(end));
  const store::StoredResult row = resultRow(store::fromEndEvent(end), kRowSubject, "cpu", "kernelscope");
  EXPECT_EQ(row.sourceFile, "runs/diag.jsonl");
  EXPECT_EQ(row.taskKey, "L1/12");
  EXPECT_EQ(row.candidateId, "r2");
  EXPECT_EQ(row.codeHash, "sha256:abc");
  EXPECT_EQ(row.device, "NVIDIA H100");
  EXPECT_EQ(row.outcome, "correct");
  ASSERT_TRUE(row.speedup);
  EXPECT_DOUBLE_EQ(*row.speedup, 13.1);
  EXPECT_EQ(row.origin, "kernelscope");
  EXPECT_EQ(store::toResultJson(row), event);
}

TEST(ResultRow, ARepairedRunKeepsWhatWasRepairedInItsResult) {
  const protocol::ResultEvent event{"1", true, protocol::toJson(timedResult("sha256:rep", 2.0))};
  RunSubject subject = kRowSubject;
  subject.repair = store::StoredRepair{"sha256:orig", {{"kernel-launcher", "bound k", {3}}}, {}};
  const store::StoredResult row = resultRow(store::fromEndEvent(event), subject, "cuda", "kscope run");
  EXPECT_EQ(row.codeHash, "sha256:rep");  // the program that ran
  EXPECT_EQ(store::toResultJson(row)["repair"], Json::parse(R"({"original_code_hash": "sha256:orig",
      "repairs": [{"kind": "kernel-launcher", "what": "bound k", "lines": [3]}]})"));
  EXPECT_EQ(row.repair, subject.repair);
  EXPECT_FALSE(store::toResultJson(resultRow(store::fromEndEvent(event), kRowSubject, "cuda", "kscope run"))
                   .contains("repair"));
}

TEST(ResultRow, AnErrorBeforeTheRunnerSaidAnythingTakesTheRequestedDeviceAndHashesTheCode) {
  const Json timeout = Json::parse(R"({"id": "2", "event": "error", "error": {"kind": "timeout",
      "message": "timed out after 3 s while checking correctness"}})");
  const store::StoredResult row = resultRow(store::fromResultJson(timeout), kRowSubject, "cpu", "kscope run");
  EXPECT_EQ(row.outcome, "error");
  EXPECT_EQ(row.errorKind, "timeout");
  EXPECT_EQ(row.device, "cpu");
  EXPECT_EQ(row.codeHash, hash::codeHash(kRowSubject.code));
  EXPECT_FALSE(row.speedup);
  EXPECT_EQ(resultRow(store::fromResultJson(timeout), kRowSubject, "", "kscope batch").device, "default");
}

TEST(EvaluateOptions, ZeroLeavesTheRunnersDefaults) {
  const protocol::Options defaults = evaluateOptions({});
  EXPECT_EQ(defaults, protocol::Options{});
  const protocol::Options chosen = evaluateOptions({.device = "cpu", .trials = 3, .seeds = 2});
  EXPECT_EQ(chosen.device, "cpu");
  EXPECT_EQ(chosen.trials, 3);
  EXPECT_EQ(chosen.seeds, 2);
}

}  // namespace
}  // namespace ks::runs
