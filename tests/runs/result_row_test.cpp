// The store row every client writes for a runner's answer, and the evaluate options from the user's choices.
#include "core/runs/result_row.h"

#include <gtest/gtest.h>

#include "core/hash/sha256.h"
#include "core/runs/evaluate_options.h"

namespace ks::runs {
namespace {

using Json = nlohmann::ordered_json;

const RunSubject kRowSubject{"runs/diag.jsonl", "L1/12", "r2", "class ModelNew: pass\n"};

TEST(ResultRow, ResultEventGivesOutcomeSpeedupAndTheRunnersDeviceAndHash) {
  const Json event = Json::parse(R"({"id": "1", "event": "result", "ok": true, "result": {
      "code_hash": "sha256:abc", "device": "cuda", "environment": {"device_name": "NVIDIA H100"},
      "correctness": {"passed": true}, "timing": {"speedup": 13.1}}})");
  const store::StoredResult row = resultRow(event, kRowSubject, "cpu", "kernelscope");
  EXPECT_EQ(row.sourceFile, "runs/diag.jsonl");
  EXPECT_EQ(row.taskKey, "L1/12");
  EXPECT_EQ(row.candidateId, "r2");
  EXPECT_EQ(row.codeHash, "sha256:abc");
  EXPECT_EQ(row.device, "NVIDIA H100");
  EXPECT_EQ(row.outcome, "correct");
  ASSERT_TRUE(row.speedup);
  EXPECT_DOUBLE_EQ(*row.speedup, 13.1);
  EXPECT_EQ(row.origin, "kernelscope");
  EXPECT_EQ(row.result, event);
}

TEST(ResultRow, ARepairedRunKeepsWhatWasRepairedInItsResult) {
  const Json event = Json::parse(R"({"id": "1", "event": "result", "ok": true, "result": {
      "code_hash": "sha256:rep", "device": "cuda", "correctness": {"passed": true}}})");
  RunSubject subject = kRowSubject;
  subject.repair = Json::parse(R"({"original_code_hash": "sha256:orig",
      "repairs": [{"kind": "kernel-launcher", "what": "bound k", "lines": [3]}]})");
  const store::StoredResult row = resultRow(event, subject, "cuda", "kscope run");
  EXPECT_EQ(row.codeHash, "sha256:rep");  // the program that ran
  EXPECT_EQ(row.result["repair"], subject.repair);
  EXPECT_FALSE(resultRow(event, kRowSubject, "cuda", "kscope run").result.contains("repair"));
}

TEST(ResultRow, AnErrorBeforeTheRunnerSaidAnythingTakesTheRequestedDeviceAndHashesTheCode) {
  const Json timeout = Json::parse(R"({"id": "2", "event": "error", "error": {"kind": "timeout",
      "message": "timed out after 3 s while checking correctness"}})");
  const store::StoredResult row = resultRow(timeout, kRowSubject, "cpu", "kscope run");
  EXPECT_EQ(row.outcome, "error");
  EXPECT_EQ(row.errorKind, "timeout");
  EXPECT_EQ(row.device, "cpu");
  EXPECT_EQ(row.codeHash, hash::codeHash(kRowSubject.code));
  EXPECT_FALSE(row.speedup);
  EXPECT_EQ(resultRow(timeout, kRowSubject, "", "kscope batch").device, "default");
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
