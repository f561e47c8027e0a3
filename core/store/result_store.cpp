#include "core/store/result_store.h"

#include <chrono>
#include <thread>

#include "core/json/nesting.h"
#include "core/store/schema_migrations.h"
#include "core/store/sqlite_statement.h"
#include "core/store/utc_timestamp.h"

namespace ks::store {
namespace {

constexpr int kBusyTimeoutMs = 15000;  // a writer waits this long for another one before giving up

// Two processes opening a new database at once can see SQLITE_BUSY from the journal-mode switch without
// the busy handler being consulted, so that one step retries by itself until the busy timeout.
std::string switchToWal(sqlite3* db) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(kBusyTimeoutMs);
  for (;;) {
    int rc;
    std::string mode;
    {
      SqliteStatement wal(db, "PRAGMA journal_mode = WAL");
      if (!wal.ok()) return sqlite3_errmsg(db);
      rc = wal.step();
      if (rc == SQLITE_ROW) mode = wal.text(0);
    }
    if (rc == SQLITE_ROW && mode == "wal") return "";
    if (rc == SQLITE_ROW)
      return "the file system refused it (journal mode stayed " + mode +
             "): keep the database on a local disk";
    if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) || std::chrono::steady_clock::now() > until)
      return sqlite3_errmsg(db);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace

Expected<std::unique_ptr<ResultStore>> ResultStore::open(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec)
    return Expected<std::unique_ptr<ResultStore>>::fail("cannot create the folder of the results database " +
                                                        name + ": " + ec.message());
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(name.c_str(), &db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string why = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return Expected<std::unique_ptr<ResultStore>>::fail("cannot open the results database " + name + ": " +
                                                        why);
  }
  std::unique_ptr<ResultStore> store(new ResultStore(db, path));
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  if (std::string why = switchToWal(db); !why.empty())
    return Expected<std::unique_ptr<ResultStore>>::fail("cannot switch the results database " + name +
                                                        " to WAL journaling: " + why);
  if (std::string why = execSql(db, "PRAGMA synchronous = NORMAL"); !why.empty())
    return Expected<std::unique_ptr<ResultStore>>::fail("cannot configure " + name + ": " + why);
  if (std::string why = migrateSchema(db, name); !why.empty())
    return Expected<std::unique_ptr<ResultStore>>::fail(why);
  return {std::move(store), ""};
}

ResultStore::~ResultStore() { sqlite3_close(db_); }

int ResultStore::schemaVersion() const {
  SqliteStatement version(db_, "PRAGMA user_version");
  return version.ok() && version.step() == SQLITE_ROW ? int(version.integer(0)) : 0;
}

Expected<std::int64_t> ResultStore::append(const StoredResult& r) {
  const nlohmann::ordered_json resultJson = toResultJson(r);
  if (resultJson.is_null())
    return Expected<std::int64_t>::fail("cannot record a result without its end event" +
                                        (r.unreadable.empty()
                                             ? std::string()
                                             : " (the runner's answer does not read: " + r.unreadable + ")"));
  for (auto [field, value] : {std::pair{"task key", &r.taskKey},
                              {"candidate id", &r.candidateId},
                              {"code hash", &r.codeHash},
                              {"device", &r.device},
                              {"outcome", &r.outcome}})
    if (value->empty())
      return Expected<std::int64_t>::fail(std::string("cannot record a result without its ") + field);
  SqliteStatement insert(
      db_,
      "INSERT INTO results (recorded_at, source_file, task_key, candidate_id, code_hash, device, "
      "outcome, passed, speedup, error_kind, origin, result_json) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  if (!insert.ok())
    return Expected<std::int64_t>::fail("cannot prepare an insert into " + path_.string() + ": " +
                                        sqlite3_errmsg(db_));
  insert.bind(1, r.recordedAt.empty() ? utcTimestampNow() : r.recordedAt);
  insert.bind(2, r.sourceFile);
  insert.bind(3, r.taskKey);
  insert.bind(4, r.candidateId);
  insert.bind(5, r.codeHash);
  insert.bind(6, r.device);
  insert.bind(7, r.outcome);
  insert.bind(8, r.passed);
  insert.bind(9, r.speedup);
  insert.bind(10, r.errorKind);
  insert.bind(11, r.origin);
  insert.bind(12, resultJson.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
  if (insert.step() != SQLITE_DONE)
    return Expected<std::int64_t>::fail("cannot record the result in " + path_.string() + ": " +
                                        sqlite3_errmsg(db_));
  return {sqlite3_last_insert_rowid(db_), ""};
}

Expected<std::vector<StoredResult>> ResultStore::history(const HistoryQuery& q) const {
  std::string sql =
      "SELECT id, recorded_at, source_file, task_key, candidate_id, code_hash, device, outcome, passed, "
      "speedup, "
      "error_kind, origin, result_json FROM results WHERE 1";
  std::vector<std::string> params;
  for (auto [column, value] : {std::pair{"task_key", &q.taskKey},
                               {"candidate_id", &q.candidateId},
                               {"code_hash", &q.codeHash},
                               {"device", &q.device}})
    if (*value) {
      sql += std::string(" AND ") + column + " = ?";
      params.push_back(**value);
    }
  sql += " ORDER BY id DESC";
  if (q.limit > 0) sql += " LIMIT " + std::to_string(q.limit);
  SqliteStatement select(db_, sql);
  if (!select.ok())
    return Expected<std::vector<StoredResult>>::fail("cannot query " + path_.string() + ": " +
                                                     sqlite3_errmsg(db_));
  for (std::size_t i = 0; i < params.size(); ++i) select.bind(int(i + 1), params[i]);
  std::vector<StoredResult> rows;
  int rc;
  while ((rc = select.step()) == SQLITE_ROW) {
    const std::string resultJson = select.text(12);
    // The end event and what was kept beside it, typed; the indexed facts are the columns'.
    StoredResult r = fromResultJson(json::tooDeepAt(resultJson)
                                        ? nlohmann::ordered_json(nlohmann::ordered_json::value_t::discarded)
                                        : nlohmann::ordered_json::parse(resultJson, nullptr, false));
    r.id = select.integer(0);
    r.recordedAt = select.text(1);
    r.sourceFile = select.text(2);
    r.taskKey = select.text(3);
    r.candidateId = select.text(4);
    r.codeHash = select.text(5);
    r.device = select.text(6);
    r.outcome = select.text(7);
    r.passed.reset();
    if (auto p = select.optInteger(8)) r.passed = *p != 0;
    r.speedup = select.optReal(9);
    r.errorKind = select.text(10);
    r.origin = select.text(11);
    rows.push_back(std::move(r));
  }
  if (rc != SQLITE_DONE)
    return Expected<std::vector<StoredResult>>::fail("cannot read " + path_.string() + ": " +
                                                     sqlite3_errmsg(db_));
  return {std::move(rows), ""};
}

}  // namespace ks::store
