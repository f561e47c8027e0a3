// Two processes (a GUI and a CLI, say) writing to one results database at the same time, both starting on a
// database that does not exist yet: every row of both must be there, and the file must pass integrity_check.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <set>

#include "core/store/result_store.h"
#include "tests/store/store_test_dir.h"

namespace ks::store {
namespace {

constexpr int kRowsPerWriter = 300;

// Runs in a forked child: opens the database itself and appends rows; exits non-zero on any failure.
[[noreturn]] void writer(const std::filesystem::path& db, int writerId, int startFd) {
  char go;
  if (read(startFd, &go, 1) != 1) _exit(10);
  auto opened = ResultStore::open(db);
  if (!opened) {
    std::fprintf(stderr, "writer %d: %s\n", writerId, opened.error.c_str());
    _exit(11);
  }
  for (int i = 0; i < kRowsPerWriter; ++i) {
    StoredResult r;
    r.taskKey = "L1/" + std::to_string(writerId);
    r.candidateId = std::to_string(i);
    r.codeHash = "sha256:" + std::to_string(writerId) + "-" + std::to_string(i);
    r.device = "cpu";
    r.outcome = "correct";
    r.passed = true;
    r.speedup = 1.0 + i;
    r.requestId = std::to_string(writerId) + ":" + std::to_string(i);  // read back from result_json
    r.result = protocol::EvaluateResult{};
    r.result->correctness.passed = true;
    if (auto appended = (*opened.value)->append(r); !appended) {
      std::fprintf(stderr, "writer %d: %s\n", writerId, appended.error.c_str());
      _exit(12);
    }
  }
  _exit(0);
}

TEST(ResultStoreConcurrency, TwoProcessesWritingAtOnceLoseNothing) {
  auto dir = test::freshDir();
  const auto db = dir / "shared.sqlite";
  int start[2];
  ASSERT_EQ(pipe(start), 0);
  pid_t children[2];
  for (int w = 0; w < 2; ++w) {
    children[w] = fork();
    ASSERT_GE(children[w], 0);
    if (children[w] == 0) {
      close(start[1]);
      writer(db, w, start[0]);
    }
  }
  close(start[0]);
  ASSERT_EQ(write(start[1], "gg", 2), 2);  // both start together, on a database neither has created
  close(start[1]);
  for (pid_t child : children) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "writer failed (10: start, 11: open, 12: append)";
  }

  auto opened = ResultStore::open(db);
  ASSERT_TRUE(opened) << opened.error;
  auto rows = (*opened.value)->history({});
  ASSERT_TRUE(rows) << rows.error;
  std::set<std::pair<int, int>> seen;
  for (const auto& r : *rows.value) {
    const std::size_t colon = r.requestId.find(':');
    if (colon != std::string::npos)
      seen.insert({std::stoi(r.requestId.substr(0, colon)), std::stoi(r.requestId.substr(colon + 1))});
  }
  EXPECT_EQ(rows.value->size(), std::size_t(2 * kRowsPerWriter));
  for (int w = 0; w < 2; ++w)
    for (int i = 0; i < kRowsPerWriter; ++i)
      EXPECT_TRUE(seen.count({w, i})) << "missing writer " << w << " row " << i;

  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* check = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA integrity_check", -1, &check, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(check), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(check, 0)), "ok");
  sqlite3_finalize(check);
  sqlite3_close(raw);
}

}  // namespace
}  // namespace ks::store
