// OpenRun without a QApplication: what each change publishes, and that snapshots of another read are ignored.
#include "views/logic/open_run.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/runs/agreement.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/logic/loaded_run.h"

namespace ks {
namespace {

// The signals `open` emitted, in order: "opened", "flags", "history", "added 2", "current 4".
struct Recorder {
  explicit Recorder(OpenRun& open) {
    QObject::connect(&open, &OpenRun::opened, [this] { seen.push_back("opened"); });
    QObject::connect(&open, &OpenRun::flagsChanged, [this] { seen.push_back("flags"); });
    QObject::connect(&open, &OpenRun::historyChanged, [this] { seen.push_back("history"); });
    QObject::connect(&open, &OpenRun::runAdded,
                     [this](int row) { seen.push_back("added " + std::to_string(row)); });
    QObject::connect(&open, &OpenRun::currentChanged,
                     [this](int row) { seen.push_back("current " + std::to_string(row)); });
  }
  std::vector<std::string> seen;
};

MeasuredHistory::Entry entry(std::int64_t id, double speedup) {
  runs::MeasuredRun run;
  run.row.id = id;
  run.row.outcome = "correct";
  run.row.speedup = speedup;
  return {run, true};
}

TEST(OpenRun, OpeningPublishesTheRunWithAnEmptyHistoryAndNoCurrentRow) {
  OpenRun open;
  Recorder r(open);
  const auto run = test::syntheticRun();
  open.open(QStringLiteral("/tmp/a.jsonl"), run);
  EXPECT_EQ(r.seen, (std::vector<std::string>{"opened", "current -1"}));
  EXPECT_EQ(open.path(), QStringLiteral("/tmp/a.jsonl"));
  EXPECT_EQ(open.run(), run);
  EXPECT_EQ(open.history()->rowCount(), run->rowCount());
  EXPECT_EQ(open.currentRow(), -1);

  open.setCurrentRow(test::kRowC);
  open.setCurrentRow(test::kRowC);      // no change, no signal
  open.setCurrentRow(run->rowCount());  // out of range: none
  EXPECT_EQ(r.seen, (std::vector<std::string>{"opened", "current -1", "current 2", "current -1"}));
}

TEST(OpenRun, TheFlaggedSnapshotReplacesTheRunAndLeavesTheSharedOneAsItWas) {
  OpenRun open;
  RunFile file = test::syntheticRun()->run();
  const auto run = std::make_shared<const LoadedRun>(file);
  open.open(QStringLiteral("/tmp/a.jsonl"), run);
  const std::shared_ptr<const LoadedRun>& shown = open.run();
  Recorder r(open);

  std::vector<std::vector<Flag>> flags(static_cast<std::size_t>(run->rowCount()));
  flags[test::kRowE] = test::syntheticRun()->flags(test::kRowE);
  const auto flagged = run->withFlags({flags, {{"x", 3, "checks failed", LoadIssue::Severity::Warning}}});
  EXPECT_TRUE(open.isOpen(flagged));
  EXPECT_FALSE(open.isOpen(std::make_shared<const LoadedRun>(file)));  // another read of the same file
  EXPECT_FALSE(open.setFlagged(std::make_shared<const LoadedRun>(file)->withFlags({flags, {}})));
  ASSERT_TRUE(open.setFlagged(flagged));
  EXPECT_EQ(r.seen, (std::vector<std::string>{"flags"}));
  EXPECT_EQ(shown, flagged);  // a held reference sees the replacement
  EXPECT_TRUE(shown->flagsChecked());
  EXPECT_EQ(shown->flags(test::kRowE).size(), flags[test::kRowE].size());
  EXPECT_EQ(shown->run().issues.size(), file.issues.size() + 1);
  EXPECT_FALSE(run->flagsChecked());  // the first snapshot did not change
  EXPECT_EQ(run->run().issues.size(), file.issues.size());
}

TEST(OpenRun, AHistoryReadMeanwhileKeepsTheRunsAddedAndOnlyForTheOpenRun) {
  OpenRun open;
  const auto run = test::syntheticRun();
  open.open(QStringLiteral("/tmp/a.jsonl"), run);
  Recorder r(open);
  const std::shared_ptr<const MeasuredHistory> before = open.history();
  open.addRun(test::kRowA, entry(7, 1.4));
  EXPECT_EQ(before->latestOfRecorded(test::kRowA), nullptr);  // snapshots do not change
  ASSERT_NE(open.history()->latestOfRecorded(test::kRowA), nullptr);

  auto read = std::make_shared<MeasuredHistory>(run->rowCount());
  read->add(test::kRowC, entry(3, 9.0));
  EXPECT_FALSE(open.setHistory(test::syntheticRun(), read));  // another read
  ASSERT_TRUE(open.setHistory(run, read));
  EXPECT_EQ(r.seen, (std::vector<std::string>{"added 0", "history"}));
  EXPECT_EQ(open.history()->latestOfRecorded(test::kRowA)->row.id, 7);
  EXPECT_EQ(open.history()->agreement(test::kRowC, 3.0), runs::Agreement::Disagrees);
}

TEST(Agreement, OneRuleForMeasuredAgainstRecorded) {
  EXPECT_FALSE(runs::disagrees(1.19, 1.0));
  EXPECT_TRUE(runs::disagrees(1.21, 1.0));
  EXPECT_TRUE(runs::disagrees(0.79, 1.0));
  EXPECT_FALSE(runs::disagrees(5.0, 0.0));  // nothing recorded to disagree with
  const MeasuredHistory::Entry ok = entry(1, 2.0);
  EXPECT_EQ(runs::agreement(nullptr, 2.0), runs::Agreement::NotMeasured);
  EXPECT_EQ(runs::agreement(&ok.run, 2.1), runs::Agreement::Agrees);
  EXPECT_EQ(runs::agreement(&ok.run, std::nullopt), runs::Agreement::NotComparable);
  runs::MeasuredRun failed = ok.run;
  failed.row.outcome = "incorrect";
  EXPECT_EQ(runs::agreement(&failed, 2.0), runs::Agreement::Failed);
}

}  // namespace
}  // namespace ks
