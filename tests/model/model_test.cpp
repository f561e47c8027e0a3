#include <gtest/gtest.h>

#include "core/model/run_file.h"

using namespace ks;

TEST(Model, TaskKeyIsLevelSlashNumber) {
  Task t;
  t.level = 2;
  t.number = 17;
  EXPECT_EQ(t.key(), "L2/17");
}

TEST(Model, SpeedupPicksRecordedMeasurementOfBaseline) {
  Candidate c;
  c.measurements.push_back({.baseline = "cudnn", .speedup = 1.5});
  c.measurements.push_back({.baseline = "default", .speedup = 3.0, .origin = "measured"});
  c.measurements.push_back({.baseline = "default", .speedup = 2.0});
  EXPECT_DOUBLE_EQ(*c.speedup(), 2.0);
  EXPECT_DOUBLE_EQ(*c.speedup("cudnn"), 1.5);
  EXPECT_FALSE(c.speedup("cuda_graph").has_value());
}

TEST(Model, RunFileCountsAndFinds) {
  RunFile f;
  f.tasks.resize(2);
  f.tasks[0].level = 1;
  f.tasks[0].number = 1;
  f.tasks[0].candidates.resize(3);
  f.tasks[1].level = 3;
  f.tasks[1].number = 9;
  f.tasks[1].candidates.resize(1);
  f.issues.push_back({"a.jsonl", 4, "bad", LoadIssue::Severity::Error});
  f.issues.push_back({"a.jsonl", 5, "meh", LoadIssue::Severity::Warning});
  EXPECT_EQ(f.candidateCount(), 4u);
  EXPECT_EQ(f.errorCount(), 1u);
  ASSERT_NE(f.findTask("L3/9"), nullptr);
  EXPECT_EQ(f.findTask("L3/9")->candidates.size(), 1u);
  EXPECT_EQ(f.findTask("L2/1"), nullptr);
  EXPECT_EQ(f.issues[0].toString(), "a.jsonl:4: error: bad");
}

TEST(Model, NamedTaskKeyIsItsId) {
  Task t;
  t.id = "LayerNorm";
  EXPECT_EQ(t.key(), "LayerNorm");
}

TEST(Model, FindTaskTakesAUniqueTailOfANamedKey) {
  RunFile f;
  f.tasks.resize(3);
  f.tasks[0].id = "h100_F32F16F16F32/64x64x64";
  f.tasks[1].id = "a100_F16F16F16F16/64x64x64";
  f.tasks[2].id = "h100_F32F16F16F32/128x64x64";
  EXPECT_EQ(f.findTask("h100_F32F16F16F32/64x64x64"), &f.tasks[0]);
  EXPECT_EQ(f.findTask("128x64x64"), &f.tasks[2]);
  EXPECT_EQ(f.findTask("64x64x64"), nullptr) << "two releases have this shape: ambiguous";
  EXPECT_EQ(f.findTask("4x64x64"), nullptr) << "a tail must start after a '/'";
  RunFile levels;
  levels.tasks.resize(1);
  levels.tasks[0].level = 1;
  levels.tasks[0].number = 12;
  EXPECT_EQ(levels.findTask("12"), nullptr) << "L<level>/<number> keys are matched whole";
}

TEST(Model, SpeedupByBaselineAndMode) {
  Candidate c;
  c.measurements.push_back({.baseline = "torch.matmul", .speedup = 1.5, .mode = "offline"});
  c.measurements.push_back({.baseline = "torch.matmul", .speedup = 2.5, .mode = "server"});
  EXPECT_DOUBLE_EQ(*c.speedup("torch.matmul"), 1.5);
  EXPECT_DOUBLE_EQ(*c.speedup("torch.matmul", "server"), 2.5);
  EXPECT_FALSE(c.speedup("torch.matmul", "").has_value());
}
