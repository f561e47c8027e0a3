// A candidate's history read back from a store: the rows of its recorded program wherever they came from,
// the edits recorded from the same file, nothing of other programs; newest first and decoded.
#include "core/runs/candidate_history.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>

#include "core/hash/sha256.h"
#include "core/protocol/json_codec.h"
#include "core/runs/result_row.h"

namespace ks::runs {
namespace {

using Json = nlohmann::ordered_json;

class CandidateHistoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("kscope-runs-test-" + std::to_string(getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
    auto opened = store::ResultStore::open(dir / "results.sqlite");
    ASSERT_TRUE(opened) << opened.error;
    db = std::move(*opened.value);
  }
  void TearDown() override {
    db.reset();
    std::filesystem::remove_all(dir);
  }
  std::int64_t add(const std::string& file, const std::string& candidate, const std::string& code,
                   const Json& event) {
    auto id = db->append(
        resultRow(store::fromResultJson(event), {file, "L1/12", candidate, code}, "cpu", "kernelscope"));
    EXPECT_TRUE(id) << id.error;
    return id.value.value_or(0);
  }
  // A row the store would not take (its event does not read), written as an older client may have.
  void addRaw(const std::string& file, const std::string& candidate, const std::string& code,
              const Json& event) {
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open((dir / "results.sqlite").c_str(), &raw), SQLITE_OK);
    sqlite3_stmt* insert = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(
                  raw,
                  "INSERT INTO results (recorded_at, source_file, task_key, candidate_id, code_hash, "
                  "device, outcome, passed, result_json) VALUES "
                  "('2025-01-02T03:04:05Z', ?, 'L1/12', ?, ?, 'cpu', 'correct', 1, ?)",
                  -1, &insert, nullptr),
              SQLITE_OK);
    const std::string hash = hash::codeHash(code), text = event.dump();
    for (int i = 0; const std::string* value : {&file, &candidate, &hash, &text})
      sqlite3_bind_text(insert, ++i, value->c_str(), -1, SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(insert), SQLITE_DONE);
    sqlite3_finalize(insert);
    sqlite3_close(raw);
  }

  std::filesystem::path dir;
  std::unique_ptr<store::ResultStore> db;
};

// A correct, timed evaluation as the runner writes it.
Json timed(double speedup) {
  protocol::EvaluateResult r;
  r.device = "cpu";
  r.environment.device = "cpu";
  r.environment.deviceName = "AMD EPYC";
  r.correctness.passed = true;
  r.correctness.seeds = {{.seed = 42, .passed = true, .maxAbsErr = 1e-6}};
  r.timing = protocol::Timing{.clock = "wall", .trials = 3, .speedup = speedup};
  r.timing->reference.medianMs = 2.0;
  r.timing->candidate.medianMs = 2.0 / speedup;
  return {{"id", "1"}, {"event", "result"}, {"ok", true}, {"result", protocol::toJson(r)}};
}

TEST_F(CandidateHistoryTest, RecordedProgramFromAnyFileAndEditsFromThisFileNewestFirst) {
  const std::string recorded = "class ModelNew: pass\n";
  const std::string edited = "class ModelNew: pass  # edited\n";
  const auto fromCli = add("diag.jsonl", "r2", recorded, timed(4.0));  // same program, relative path
  const auto edit = add("/abs/diag.jsonl", "r2", edited, timed(5.0));
  add("/other/l40.jsonl", "r2", "another program\n", timed(9.0));  // same key, other file and program
  add("/abs/diag.jsonl", "r3", "r3's program\n", timed(7.0));      // other candidate
  const auto error =
      add("/abs/diag.jsonl", "r2", recorded,
          {{"id", "4"},
           {"event", "error"},
           {"error", {{"kind", "crash"}, {"message", "died"}, {"signal", 11}, {"stderr_tail", "x"}}}});

  auto history = candidateHistory(*db, {"/abs/diag.jsonl", "L1/12", "r2", hash::codeHash(recorded)});
  ASSERT_TRUE(history) << history.error;
  ASSERT_EQ(history.value->size(), 3u);
  const auto& runs = *history.value;
  EXPECT_EQ(runs[0].row.id, error);
  EXPECT_EQ(runs[1].row.id, edit);
  EXPECT_EQ(runs[2].row.id, fromCli);

  ASSERT_TRUE(runs[0].error);
  EXPECT_EQ(runs[0].error->kind, protocol::ErrorKind::Crash);
  EXPECT_EQ(runs[0].error->signal, 11);
  EXPECT_FALSE(runs[0].correct());
  ASSERT_TRUE(runs[2].result) << runs[2].unreadable;
  ASSERT_TRUE(runs[2].result->timing);
  EXPECT_DOUBLE_EQ(runs[2].result->timing->speedup, 4.0);
  EXPECT_TRUE(runs[2].correct());
  EXPECT_FALSE(runs[2].row.result);  // decoded once, not kept twice
}

TEST_F(CandidateHistoryTest, BatchBuildErrorsWithoutARequestIdAreDecoded) {
  const std::string code = "load_inline(...)\n";
  add("/abs/diag.jsonl", "r3", code,
      {{"event", "error"},
       {"error",
        {{"kind", "build"},
         {"message", "identifier \"x\" is undefined"},
         {"phase", "build"},
         {"diagnostics",
          {{{"file", "cuda.cu"},
            {"line", 12},
            {"column", 5},
            {"severity", "error"},
            {"message", "identifier \"x\" is undefined"},
            {"python_line", 48}}}}}}});
  auto history = candidateHistory(*db, {"/abs/diag.jsonl", "L1/12", "r3", hash::codeHash(code)});
  ASSERT_TRUE(history) << history.error;
  ASSERT_EQ(history.value->size(), 1u);
  const MeasuredRun& run = history.value->front();
  ASSERT_TRUE(run.error) << run.unreadable;
  ASSERT_EQ(run.error->diagnostics.size(), 1u);
  EXPECT_EQ(run.error->diagnostics[0].pythonLine, 48);
}

TEST_F(CandidateHistoryTest, AnUnreadableEventSaysWhy) {
  const std::string code = "x\n";
  addRaw("/abs/diag.jsonl", "r1", code, {{"id", "1"}, {"event", "result"}, {"ok", true}, {"result", 5}});
  auto history = candidateHistory(*db, {"/abs/diag.jsonl", "L1/12", "r1", hash::codeHash(code)});
  ASSERT_TRUE(history);
  ASSERT_EQ(history.value->size(), 1u);
  EXPECT_FALSE(history.value->front().result);
  EXPECT_FALSE(history.value->front().error);
  EXPECT_FALSE(history.value->front().unreadable.empty());
}

// kscope run --repair's "fallback" line: the newest timed run of the un-repaired program that fell back;
// not a run that built, not a run of another program (the repaired one).
TEST_F(CandidateHistoryTest, TheLatestFallbackRunOfTheUnrepairedProgram) {
  const std::string original = "functions=['k']\n", repaired = "functions=None\n";
  // A timed result whose candidate extension did not build (the program ran its fallback).
  auto fellBack = [](double speedup) {
    Json event = timed(speedup);
    auto r = protocol::decodeEvaluateResult(event["result"]);
    EXPECT_TRUE(r.value) << r.error;
    protocol::ExtensionBuild b;
    b.name = "k_ext";
    b.program = "candidate";
    b.cause = "bound-kernel";
    r.value->build.extensions = {b};
    event["result"] = protocol::toJson(*r.value);
    return event;
  };
  add("/abs/l1.jsonl", "r1", original, timed(1.5));  // an older run where it built: not the fallback's
  const std::int64_t older = add("/abs/l1.jsonl", "r1", original, fellBack(1.01));
  const std::int64_t newest = add("/abs/l1.jsonl", "r1", original, fellBack(0.99));
  add("/abs/l1.jsonl", "r1", repaired, timed(22.0));  // the repaired kernel
  auto history = candidateHistory(*db, {"/abs/l1.jsonl", "L1/12", "r1", hash::codeHash(original)});
  ASSERT_TRUE(history) << history.error;
  const MeasuredRun* found = latestFallbackRun(*history.value, hash::codeHash(original));
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->row.id, newest);
  EXPECT_GT(newest, older);
  EXPECT_EQ(latestFallbackRun(*history.value, hash::codeHash(repaired)), nullptr);
}

}  // namespace
}  // namespace ks::runs
