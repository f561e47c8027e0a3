#pragma once
// The results database (SQLite, docs/store-schema.md): an append-only history of every re-run, shared by
// the GUI and the CLI. WAL journal and a busy timeout let several processes write at once; rows are only
// ever inserted (triggers refuse UPDATE and DELETE), so a re-time never overwrites a recorded number.
#include <sqlite3.h>

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/store/expected.h"
#include "core/store/stored_result.h"

namespace ks::store {

struct HistoryQuery {  // every set field must match; rows come newest first
  std::optional<std::string> taskKey;
  std::optional<std::string> candidateId;
  std::optional<std::string> codeHash;
  std::optional<std::string> device;
  std::size_t limit = 0;  // 0: all
};

class ResultStore {
 public:
  // Opens (creating the file and its folder when needed) and migrates the schema.
  static Expected<std::unique_ptr<ResultStore>> open(const std::filesystem::path& path);

  ~ResultStore();
  ResultStore(const ResultStore&) = delete;
  ResultStore& operator=(const ResultStore&) = delete;

  // Inserts `result` and returns its row id. taskKey, candidateId, codeHash, device, outcome and the end
  // event (its result or error) are required; result_json is toResultJson(result).
  Expected<std::int64_t> append(const StoredResult& result);
  // Newest first; each row's result_json read back into its end event, repair and gpu (fromResultJson).
  Expected<std::vector<StoredResult>> history(const HistoryQuery& query) const;

  const std::filesystem::path& path() const { return path_; }
  int schemaVersion() const;

 private:
  ResultStore(sqlite3* db, std::filesystem::path path) : db_(db), path_(std::move(path)) {}
  sqlite3* db_;
  std::filesystem::path path_;
};

}  // namespace ks::store
