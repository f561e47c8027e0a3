// The one task-key rule of every kscope command (core/model/task_lookup.h) and the "did you mean" rule it
// and the unknown-subcommand message share (core/model/closest_names.h).
#include "core/model/task_lookup.h"

#include <gtest/gtest.h>

#include "core/model/closest_names.h"

using namespace ks;

namespace {

RunFile kernelBenchRun() {
  RunFile f;
  f.path = "h100.jsonl";
  for (auto [level, number] : {std::pair{1, 11}, {1, 12}, {1, 21}, {2, 5}, {3, 40}}) {
    Task t;
    t.level = level;
    t.number = number;
    f.tasks.push_back(t);
  }
  return f;
}

RunFile namedRun() {
  RunFile f;
  f.path = "cuda-l2";
  for (const char* id : {"h100_F32F16F16F32/64x64x64", "a100_F16F16F16F16/64x64x64",
                         "h100_F32F16F16F32/128x64x64", "LayerNorm"}) {
    Task t;
    t.id = id;
    f.tasks.push_back(t);
  }
  return f;
}

}  // namespace

TEST(ClosestNames, EditDistanceIgnoresCase) {
  EXPECT_EQ(editDistance("summary", "summary"), 0u);
  EXPECT_EQ(editDistance("summarize", "summary"), 3u);
  EXPECT_EQ(editDistance("chek", "check"), 1u);
  EXPECT_EQ(editDistance("LAYERNORM", "LayerNorm"), 0u);
  EXPECT_EQ(editDistance("", "run"), 3u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
}

TEST(ClosestNames, OffersTheNearestNamesOnly) {
  const std::vector<std::string> commands = {"batch", "check", "import", "merge",  "report",
                                             "run",   "serve", "slurm",  "summary"};
  EXPECT_EQ(closestNames("summarize", commands), std::vector<std::string>{"summary"});
  EXPECT_EQ(closestNames("chek", commands), std::vector<std::string>{"check"});
  EXPECT_EQ(closestNames("rn", commands), std::vector<std::string>{"run"});
  EXPECT_EQ(closestNames("sum", commands), std::vector<std::string>{"summary"}) << "a prefix of 3 or more";
  EXPECT_TRUE(closestNames("frobnicate", commands).empty());
  EXPECT_EQ(closestNames("L1/121", {"L1/11", "L1/12", "L1/21", "L2/5"}),
            (std::vector<std::string>{"L1/11", "L1/12", "L1/21"}));
  EXPECT_EQ(closestNames("L1/121", {"L1/11", "L1/12", "L1/21"}, 1), std::vector<std::string>{"L1/11"});
}

TEST(ClosestNames, Alternatives) {
  EXPECT_EQ(alternatives({"summary"}, "'"), "'summary'");
  EXPECT_EQ(alternatives({"L1/12", "L1/21"}), "L1/12 or L1/21");
  EXPECT_EQ(alternatives({"a", "b", "c"}), "a, b or c");
  EXPECT_EQ(alternatives({}), "");
}

// The forms `kscope check` took before any other command did: "1/12" is L1/12.
TEST(TaskLookup, TakesEveryFormCheckTakes) {
  const RunFile f = kernelBenchRun();
  for (const char* typed : {"L1/12", "1/12", "l1/12", " 1/12 "}) {
    const TaskLookup found = lookUpTask(f, typed);
    ASSERT_NE(found.task, nullptr) << typed << ": " << found.error;
    EXPECT_EQ(found.task->key(), "L1/12") << typed;
    EXPECT_EQ(found.error, "");
  }
  const RunFile named = namedRun();
  EXPECT_EQ(lookUpTask(named, "128x64x64").task, &named.tasks[2]);
  EXPECT_EQ(lookUpTask(named, "LayerNorm").task, &named.tasks[3]);
  EXPECT_EQ(lookUpTask(named, "h100_F32F16F16F32/64x64x64").task, &named.tasks[0]);
}

TEST(TaskLookup, AnUnknownKeySuggestsTheClosest) {
  const RunFile f = kernelBenchRun();
  TaskLookup found = lookUpTask(f, "L1/121");
  EXPECT_EQ(found.task, nullptr);
  EXPECT_EQ(found.error, "no task L1/121 in h100.jsonl; did you mean L1/11, L1/12 or L1/21?");
  found = lookUpTask(f, "2/6", "run.jsonl");
  EXPECT_EQ(found.error, "no task 2/6 in run.jsonl; did you mean L2/5?") << "the file as the user named it";
  found = lookUpTask(f, "Softmax");
  EXPECT_EQ(found.error, "no task Softmax in h100.jsonl (tasks: L1/11, L1/12, L1/21, L2/5, L3/40)");
  found = lookUpTask(f, "");
  EXPECT_EQ(found.error, "no task given in h100.jsonl (a task is named like L1/12)");

  const RunFile named = namedRun();
  EXPECT_EQ(lookUpTask(named, "Layernorm").error, "no task Layernorm in cuda-l2; did you mean LayerNorm?");
  EXPECT_EQ(lookUpTask(named, "128x64x65").error,
            "no task 128x64x65 in cuda-l2; did you mean h100_F32F16F16F32/128x64x64?")
      << "a named key is offered by its tail too";
  EXPECT_EQ(
      lookUpTask(named, "64x64x64").error,
      "2 tasks in cuda-l2 end in /64x64x64: h100_F32F16F16F32/64x64x64 or a100_F16F16F16F16/64x64x64; give "
      "the whole key");
}
