#include "core/store/result_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include "core/protocol/json_codec.h"
#include "core/store/schema_migrations.h"
#include "core/store/store_path.h"
#include "tests/store/store_test_dir.h"

namespace ks::store {
namespace {

StoredResult sample(const std::string& candidate, double speedup, const std::string& hash = "sha256:aa") {
  protocol::EvaluateResult result;
  result.codeHash = hash;
  result.device = "cuda";
  result.environment.deviceName = "NVIDIA H100 80GB HBM3";
  result.correctness.passed = true;
  result.timing = protocol::Timing{.speedup = speedup};
  StoredResult r = fromEvaluateEnd({"7", std::move(result)});
  r.taskKey = "L1/12";
  r.candidateId = candidate;
  r.sourceFile = "h100.jsonl";
  r.origin = "test";
  return r;
}

TEST(ResultStore, CreatesVersionedSchemaWithMigrationRecord) {
  auto dir = test::freshDir();
  auto opened = ResultStore::open(dir / "nested" / "results.sqlite");
  ASSERT_TRUE(opened) << opened.error;
  EXPECT_EQ((*opened.value)->schemaVersion(), latestSchemaVersion());

  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "nested" / "results.sqlite").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT version, description FROM schema_migrations", -1, &stmt, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(stmt, 0), 1);
  sqlite3_finalize(stmt);
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(db);
}

TEST(ResultStore, ReopeningKeepsRowsAndDoesNotMigrateAgain) {
  auto dir = test::freshDir();
  {
    auto opened = ResultStore::open(dir / "r.sqlite");
    ASSERT_TRUE(opened) << opened.error;
    ASSERT_TRUE((*opened.value)->append(sample("r1", 2.0)));
  }
  auto again = ResultStore::open(dir / "r.sqlite");
  ASSERT_TRUE(again) << again.error;
  auto rows = (*again.value)->history({});
  ASSERT_TRUE(rows) << rows.error;
  EXPECT_EQ(rows.value->size(), 1u);
}

TEST(ResultStore, AppendNeverOverwritesAndHistoryIsNewestFirst) {
  auto dir = test::freshDir();
  auto opened = ResultStore::open(dir / "r.sqlite");
  ASSERT_TRUE(opened) << opened.error;
  ResultStore& store = **opened.value;
  auto first = store.append(sample("r2", 13.1));
  auto second = store.append(sample("r2", 12.7));  // a re-time of the same code
  auto other = store.append(sample("r3", 1.5, "sha256:bb"));
  ASSERT_TRUE(first && second && other);
  EXPECT_LT(*first.value, *second.value);

  auto r2 = store.history({.taskKey = "L1/12", .candidateId = "r2"});
  ASSERT_TRUE(r2) << r2.error;
  ASSERT_EQ(r2.value->size(), 2u);
  EXPECT_DOUBLE_EQ(*(*r2.value)[0].speedup, 12.7);
  EXPECT_DOUBLE_EQ(*(*r2.value)[1].speedup, 13.1);
  EXPECT_EQ((*r2.value)[0].device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ((*r2.value)[0].outcome, "correct");
  EXPECT_EQ((*r2.value)[0].result->timing->speedup, 12.7);
  EXPECT_FALSE((*r2.value)[0].recordedAt.empty());

  auto byHash = store.history({.codeHash = "sha256:bb"});
  ASSERT_TRUE(byHash);
  ASSERT_EQ(byHash.value->size(), 1u);
  EXPECT_EQ((*byHash.value)[0].candidateId, "r3");

  auto limited = store.history({.taskKey = "L1/12", .limit = 1});
  ASSERT_TRUE(limited);
  ASSERT_EQ(limited.value->size(), 1u);
  EXPECT_EQ((*limited.value)[0].candidateId, "r3");
}

TEST(ResultStore, UpdateAndDeleteAreRefusedByTheDatabase) {
  auto dir = test::freshDir();
  auto opened = ResultStore::open(dir / "r.sqlite");
  ASSERT_TRUE(opened);
  ASSERT_TRUE((*opened.value)->append(sample("r1", 2.0)));
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "r.sqlite").c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  EXPECT_NE(sqlite3_exec(db, "UPDATE results SET speedup = 99", nullptr, nullptr, &message), SQLITE_OK);
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("append-only"), std::string::npos);
  sqlite3_free(message);
  EXPECT_NE(sqlite3_exec(db, "DELETE FROM results", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto rows = (*opened.value)->history({});
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows.value->size(), 1u);
  EXPECT_DOUBLE_EQ(*(*rows.value)[0].speedup, 2.0);
}

TEST(ResultStore, ErrorsAndIncorrectResultsAreRecordedWithTheirKind) {
  auto dir = test::freshDir();
  auto opened = ResultStore::open(dir / "r.sqlite");
  ASSERT_TRUE(opened);
  StoredResult crash = fromResultJson(
      {{"id", "9"}, {"event", "error"}, {"error", {{"kind", "crash"}, {"message", "killed by SIGSEGV"}}}});
  EXPECT_EQ(crash.outcome, "error");
  EXPECT_EQ(crash.errorKind, "crash");
  EXPECT_FALSE(crash.passed.has_value());
  crash.taskKey = "L2/3";
  crash.candidateId = "c";
  crash.codeHash = "sha256:cc";
  crash.device = "cuda";
  ASSERT_TRUE((*opened.value)->append(crash));

  protocol::EvaluateResult incorrect;
  incorrect.codeHash = "sha256:dd";
  incorrect.device = "cpu";
  incorrect.correctness.passed = false;
  StoredResult wrong = fromEvaluateEnd({"", std::move(incorrect)});
  EXPECT_EQ(wrong.outcome, "incorrect");
  EXPECT_EQ(wrong.passed, false);
  EXPECT_EQ(wrong.device, "cpu");
  EXPECT_FALSE(wrong.speedup.has_value());

  auto rows = (*opened.value)->history({.taskKey = "L2/3"});
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows.value->size(), 1u);
  EXPECT_EQ((*rows.value)[0].errorKind, "crash");
  EXPECT_FALSE((*rows.value)[0].passed.has_value());
  EXPECT_EQ((*rows.value)[0].error->message, "killed by SIGSEGV");
}

// An evaluation as a runner writes it: enough to decode, with a timing.
protocol::EvaluateResult evaluation(double speedup) {
  protocol::EvaluateResult r;
  r.codeHash = "sha256:ee";
  r.device = "cuda";
  r.environment.device = "cuda";
  r.environment.deviceName = "NVIDIA H100 80GB HBM3";
  r.environment.torch = "2.5.1";
  r.environment.python = "3.11.2";
  r.correctness.passed = true;
  r.correctness.seeds = {{.seed = 42, .passed = true, .maxAbsErr = 1e-6}};
  r.timing = protocol::Timing{.clock = "cuda-events", .trials = 3, .speedup = speedup};
  r.timing->reference.trialsMs = {2.0, 2.1, 1.9};
  r.timing->candidate.trialsMs = {1.0, 1.1, 0.9};
  return r;
}

std::string resultJsonColumn(const std::filesystem::path& path, std::int64_t id) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, "SELECT result_json FROM results WHERE id = ?", -1, &stmt, nullptr),
            SQLITE_OK);
  sqlite3_bind_int64(stmt, 1, id);
  std::string text;
  if (sqlite3_step(stmt) == SQLITE_ROW) text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return text;
}

// result_json is the end event as the runner client had it (the protocol's encoding of the event, its result
// payload the runner's), then "repair" and "gpu": the bytes stores have always held.
TEST(ResultStore, TheStoredJsonIsTheEndEventWithRepairAndGpuBesideIt) {
  auto dir = test::freshDir();
  auto opened = ResultStore::open(dir / "r.sqlite");
  ASSERT_TRUE(opened) << opened.error;
  const protocol::EvaluateResult result = evaluation(2.5);
  StoredResult row = fromEndEvent(protocol::ResultEvent{"12", true, protocol::toJson(result)});
  ASSERT_TRUE(row.result) << row.unreadable;
  row.taskKey = "L1/12";
  row.candidateId = "r2";
  row.repair = StoredRepair{"sha256:orig", {{"bind-wrapper", "binds a host wrapper", {40}}}, {}};
  row.gpu = "GPU-3c4d";
  auto id = (*opened.value)->append(row);
  ASSERT_TRUE(id) << id.error;

  nlohmann::ordered_json expected = nlohmann::ordered_json::parse(
      protocol::encodeEvent(protocol::ResultEvent{"12", true, protocol::toJson(result)}));
  expected["repair"] = {
      {"original_code_hash", "sha256:orig"},
      {"repairs", {{{"kind", "bind-wrapper"}, {"what", "binds a host wrapper"}, {"lines", {40}}}}}};
  expected["gpu"] = "GPU-3c4d";
  EXPECT_EQ(resultJsonColumn(dir / "r.sqlite", *id.value),
            expected.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));

  protocol::ErrorInfo timeout;
  timeout.kind = protocol::ErrorKind::Timeout;
  timeout.message = "timed out after 3 s while checking correctness";
  timeout.phase = "correctness";
  StoredResult error = fromEndEvent(protocol::ErrorEvent{"13", timeout});
  error.taskKey = "L1/12";
  error.candidateId = "r2";
  error.codeHash = "sha256:ee";
  error.device = "cpu";
  auto errorId = (*opened.value)->append(error);
  ASSERT_TRUE(errorId) << errorId.error;
  EXPECT_EQ(resultJsonColumn(dir / "r.sqlite", *errorId.value),
            protocol::encodeEvent(protocol::ErrorEvent{"13", timeout}));
}

// Rows as stores already hold them: a result with "repair" and "gpu" beside the event, an error that
// kscope batch wrote without a request id, and one that does not decode.
TEST(ResultStore, RowsInTheStoredJsonFormReadBackTyped) {
  auto dir = test::freshDir();
  ASSERT_TRUE(ResultStore::open(dir / "r.sqlite"));  // the schema
  nlohmann::ordered_json resultRow = {{"id", "5"}, {"event", "result"}, {"ok", true}};
  resultRow["result"] = protocol::toJson(evaluation(3.25));
  resultRow["repair"] = {
      {"original_code_hash", "sha256:orig"},
      {"repairs", {{{"kind", "bind-wrapper"}, {"what", "binds a wrapper"}, {"lines", {3, 4}}}}},
      {"not_repaired", {"a cause no repair fixes"}}};
  resultRow["gpu"] = "1";
  const nlohmann::ordered_json batchError = {
      {"event", "error"},
      {"error", {{"kind", "build"}, {"message", "identifier \"x\" is undefined"}, {"phase", "build"}}}};
  const nlohmann::ordered_json undecodable = {{"id", "1"}, {"event", "result"}, {"ok", true}, {"result", 5}};
  const auto values = [](const std::string& columns, const nlohmann::ordered_json& resultJson) {
    return "(" + columns + ", '" + resultJson.dump() + "')";
  };
  const std::string columns =
      "recorded_at, task_key, candidate_id, code_hash, device, outcome, passed, "
      "speedup, error_kind, result_json";
  const std::string insert =
      "INSERT INTO results (" + columns + ") VALUES " +
      values("'2025-01-02T03:04:05Z', 'L1/12', 'r1', 'sha256:ee', 'H100', 'correct', 1, 3.25, ''",
             resultRow) +
      ", " +
      values("'2025-01-02T03:04:06Z', 'L1/12', 'r2', 'sha256:ff', 'cuda', 'error', NULL, NULL, 'build'",
             batchError) +
      ", " +
      values("'2025-01-02T03:04:07Z', 'L1/12', 'r3', 'sha256:gg', 'cuda', 'correct', 1, 9.0, ''",
             undecodable);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "r.sqlite").c_str(), &db), SQLITE_OK);
  char* message = nullptr;
  ASSERT_EQ(sqlite3_exec(db, insert.c_str(), nullptr, nullptr, &message), SQLITE_OK) << message;
  sqlite3_close(db);

  auto opened = ResultStore::open(dir / "r.sqlite");
  ASSERT_TRUE(opened) << opened.error;
  auto rows = (*opened.value)->history({});
  ASSERT_TRUE(rows) << rows.error;
  ASSERT_EQ(rows.value->size(), 3u);
  const StoredResult& unreadable = (*rows.value)[0];
  const StoredResult& error = (*rows.value)[1];
  const StoredResult& result = (*rows.value)[2];

  EXPECT_EQ(result.candidateId, "r1");
  EXPECT_EQ(result.recordedAt, "2025-01-02T03:04:05Z");
  EXPECT_EQ(result.requestId, "5");
  ASSERT_TRUE(result.result) << result.unreadable;
  EXPECT_EQ(*result.result, evaluation(3.25));
  EXPECT_FALSE(result.error);
  ASSERT_TRUE(result.repair);
  EXPECT_EQ(*result.repair,
            (StoredRepair{
                "sha256:orig", {{"bind-wrapper", "binds a wrapper", {3, 4}}}, {"a cause no repair fixes"}}));
  EXPECT_EQ(result.gpu, "1");
  ASSERT_TRUE(result.speedup);
  EXPECT_DOUBLE_EQ(*result.speedup, 3.25);
  EXPECT_EQ(result.device, "H100");  // the columns are what was written

  EXPECT_EQ(error.requestId, "");
  ASSERT_TRUE(error.error) << error.unreadable;
  EXPECT_EQ(error.error->kind, protocol::ErrorKind::Build);
  EXPECT_EQ(error.error->message, "identifier \"x\" is undefined");
  EXPECT_FALSE(error.passed);
  EXPECT_EQ(error.errorKind, "build");
  EXPECT_FALSE(error.repair);
  EXPECT_TRUE(error.gpu.empty());

  EXPECT_FALSE(unreadable.result);
  EXPECT_FALSE(unreadable.error);
  EXPECT_FALSE(unreadable.unreadable.empty());
  EXPECT_EQ(unreadable.outcome, "correct");
  ASSERT_TRUE(unreadable.speedup);
  EXPECT_DOUBLE_EQ(*unreadable.speedup, 9.0);
}

TEST(ResultStore, ARowWithoutItsEndEventIsRefusedWithAReason) {
  auto dir = test::freshDir();
  auto opened = ResultStore::open(dir / "r.sqlite");
  ASSERT_TRUE(opened);
  StoredResult r = fromEndEvent(protocol::ResultEvent{"1", true, {{"code_hash", "sha256:aa"}}});
  EXPECT_FALSE(r.unreadable.empty());
  r.taskKey = "L1/12";
  r.candidateId = "r1";
  r.codeHash = "sha256:aa";
  r.device = "cuda";
  r.outcome = "correct";
  auto appended = (*opened.value)->append(r);
  EXPECT_FALSE(appended);
  EXPECT_NE(appended.error.find("end event"), std::string::npos) << appended.error;
}

TEST(ResultStore, AppendWithoutIdentityIsRefusedWithAReason) {
  auto dir = test::freshDir();
  auto opened = ResultStore::open(dir / "r.sqlite");
  ASSERT_TRUE(opened);
  StoredResult r = sample("r1", 2.0);
  r.codeHash.clear();
  auto appended = (*opened.value)->append(r);
  EXPECT_FALSE(appended);
  EXPECT_NE(appended.error.find("code hash"), std::string::npos);
}

TEST(ResultStore, NewerSchemaIsRefusedNotDowngraded) {
  auto dir = test::freshDir();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dir / "future.sqlite").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 999", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto opened = ResultStore::open(dir / "future.sqlite");
  ASSERT_FALSE(opened);
  EXPECT_NE(opened.error.find("999"), std::string::npos) << opened.error;
  EXPECT_NE(opened.error.find("newer"), std::string::npos) << opened.error;
}

TEST(StorePath, EnvironmentOverridesThenXdgDataHome) {
  setenv("KSCOPE_RESULTS_DB", "/tmp/explicit.sqlite", 1);
  EXPECT_EQ(defaultStorePath(), "/tmp/explicit.sqlite");
  unsetenv("KSCOPE_RESULTS_DB");
  setenv("XDG_DATA_HOME", "/data/home", 1);
  EXPECT_EQ(defaultStorePath(), "/data/home/kernelscope/results.sqlite");
  unsetenv("XDG_DATA_HOME");
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(defaultStorePath(), "/home/someone/.local/share/kernelscope/results.sqlite");
}

}  // namespace
}  // namespace ks::store
