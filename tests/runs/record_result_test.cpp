// The one path from a runner's answer to the results store (record_result.h), and the GUI's run built from
// the typed end event (measuredRun of the row it records) agreeing with the one read back from the store.
#include "core/runs/record_result.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "core/protocol/json_codec.h"
#include "core/runs/measured_run.h"

namespace ks::runs {
namespace {

using Json = nlohmann::ordered_json;

const RunSubject kSubject{"runs/diag.jsonl", "L1/12", "r2", "class ModelNew: pass\n"};

TEST(RecordResult, AppendsTheStampedRowAndReturnsItsId) {
  const auto dir = std::filesystem::temp_directory_path() / ("ks-record-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto opened = store::ResultStore::open(dir / "results.db");
  ASSERT_TRUE(opened) << opened.error;
  const Json event = Json::parse(R"({"id": "1", "event": "error", "error": {"kind": "timeout",
      "message": "timed out after 3 s while checking correctness"}})");
  const RecordedResult recorded =
      recordResult(**opened.value, store::fromResultJson(event), kSubject, "cpu", "kscope run");
  EXPECT_TRUE(recorded.storeError.empty()) << recorded.storeError;
  EXPECT_GT(recorded.row.id, 0);
  EXPECT_FALSE(recorded.row.recordedAt.empty());
  auto rows = (*opened.value)->history({.taskKey = "L1/12", .candidateId = "r2"});
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows.value->size(), 1u);
  EXPECT_EQ(rows.value->front().id, recorded.row.id);
  EXPECT_EQ(rows.value->front().recordedAt, recorded.row.recordedAt);
  opened.value->reset();
  std::filesystem::remove_all(dir);
}

TEST(MeasuredRun, FromTheTypedEventItIsWhatTheStoredRowReadsBackAs) {
  const auto dir = std::filesystem::temp_directory_path() / ("ks-record-typed-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto opened = store::ResultStore::open(dir / "results.db");
  ASSERT_TRUE(opened) << opened.error;
  const Json event = Json::parse(R"({"id": "1", "event": "error", "error": {"kind": "runtime",
      "message": "boom", "line": 7}})");
  auto decoded = protocol::decodeEvent(event.dump());
  ASSERT_TRUE(decoded.value) << decoded.error;
  const auto& error = std::get<protocol::ErrorEvent>(*decoded.value);
  const RecordedResult recorded =
      recordResult(**opened.value, store::fromEndEvent(error), kSubject, "cpu", "kernelscope");
  ASSERT_TRUE(recorded.storeError.empty()) << recorded.storeError;
  auto rows = (*opened.value)->history({.taskKey = "L1/12"});
  ASSERT_TRUE(rows && rows.value->size() == 1u);
  const MeasuredRun typed = measuredRun(recorded.row);
  const MeasuredRun read = measuredRun(rows.value->front());
  opened.value->reset();
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(typed.error && read.error);
  EXPECT_EQ(*typed.error, *read.error);
  EXPECT_FALSE(typed.result);
  EXPECT_TRUE(typed.unreadable.empty());
  EXPECT_EQ(typed.row.outcome, "error");
}

// A run timed by one runner of several, each on its own GPU: the row keeps which, both as the GUI sees it at
// once and as it reads back from the store; without one nothing is stored.
TEST(MeasuredRun, ThePerGpuRunnersIdIsStoredAndReadBack) {
  const auto dir = std::filesystem::temp_directory_path() / ("ks-record-gpu-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto opened = store::ResultStore::open(dir / "results.db");
  ASSERT_TRUE(opened) << opened.error;
  const Json event = Json::parse(R"({"id": "1", "event": "error", "error": {"kind": "runtime",
      "message": "boom"}})");
  RunSubject subject = kSubject;
  subject.gpu = "GPU-3c4d";
  auto decoded = protocol::decodeEvent(event.dump());
  ASSERT_TRUE(decoded.value) << decoded.error;
  const auto& end = std::get<protocol::ErrorEvent>(*decoded.value);
  const RecordedResult recorded =
      recordResult(**opened.value, store::fromEndEvent(end), subject, "cuda", "kernelscope");
  ASSERT_TRUE(recorded.storeError.empty()) << recorded.storeError;
  EXPECT_EQ(store::toResultJson(recorded.row)["gpu"], "GPU-3c4d");
  EXPECT_EQ(measuredRun(recorded.row).gpu, "GPU-3c4d");
  auto rows = (*opened.value)->history({.taskKey = "L1/12"});
  ASSERT_TRUE(rows && rows.value->size() == 1u);
  const MeasuredRun read = measuredRun(rows.value->front());
  EXPECT_EQ(read.gpu, "GPU-3c4d");
  ASSERT_TRUE(read.error) << read.unreadable;  // the key beside the end event does not spoil its decoding
  EXPECT_EQ(read.error->message, "boom");
  EXPECT_TRUE(measuredRun(resultRow(store::fromEndEvent(end), kSubject, "cuda", "kernelscope")).gpu.empty());
  EXPECT_FALSE(store::toResultJson(resultRow(store::fromEndEvent(end), kSubject, "cuda", "kernelscope"))
                   .contains("gpu"));
  opened.value->reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ks::runs
