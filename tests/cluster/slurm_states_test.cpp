// `kscope slurm --status` reads task states from sacct (else squeue). The outputs below are real: printed by
// Slurm 22.05.8 (Debian 12's slurm-wlm, slurmdbd on MariaDB 10.11) on a one-node test cluster as
// tests/slurm/slurm_array_test.sh starts it, with `sacct -j JOB -X -n -P -o JobID,State` and
// `squeue -j JOB -r -h -o '%i|%T'`, for arrays held pending (partition down), running, cancelled, ended.
#include "core/cluster/slurm_states.h"

#include <gtest/gtest.h>

namespace ks::cluster {
namespace {

using Counts = std::map<std::string, int>;

TEST(SlurmStates, APendingArrayIsOneSacctLineForEachOfItsTasks) {
  // sbatch --array=0-3%2 (at most 2 at once) into a partition that is down.
  auto states = parseTaskStates("4_[0-3%2]|PENDING\n");
  EXPECT_EQ(countStates(states), (Counts{{"PENDING", 4}}));
  EXPECT_EQ(states.at("4_3"), "PENDING");
  // --array=0,2,5-7
  states = parseTaskStates("8_[0,2,5-7]|PENDING\n");
  EXPECT_EQ(states.size(), 5u);
  EXPECT_TRUE(states.count("8_0") && states.count("8_2") && states.count("8_5") && states.count("8_7"));
  // squeue -r lists the same tasks one per line.
  EXPECT_EQ(parseTaskStates("8_0|PENDING\n8_2|PENDING\n8_5|PENDING\n8_6|PENDING\n8_7|PENDING\n"), states);
}

TEST(SlurmStates, StartedTasksHaveLinesOfTheirOwnBesideTheRangeLeft) {
  // The partition up again, 8_2 cancelled while pending (sacct lists it no more): two run, two wait.
  EXPECT_EQ(countStates(parseTaskStates("8_0|RUNNING\n8_5|RUNNING\n8_[6-7]|PENDING\n")),
            (Counts{{"PENDING", 2}, {"RUNNING", 2}}));
  // One cancelled while running: "CANCELLED by <uid>".
  EXPECT_EQ(countStates(parseTaskStates("8_0|RUNNING\n8_5|CANCELLED by 0\n8_[6-7]|PENDING\n")),
            (Counts{{"CANCELLED", 1}, {"PENDING", 2}, {"RUNNING", 1}}));
  // scancel of the whole array: 8_6 is named on its own line AND inside the range; it counts once.
  const auto states =
      parseTaskStates("8_0|CANCELLED by 0\n8_5|CANCELLED by 0\n8_6|CANCELLED by 0\n8_[6-7]|CANCELLED by 0\n");
  EXPECT_EQ(countStates(states), (Counts{{"CANCELLED", 4}}));
}

TEST(SlurmStates, EndedTasks) {
  // sbatch --array=0-2 --wrap 'test $SLURM_ARRAY_TASK_ID != 1'; the array's own job id went to its last task.
  EXPECT_EQ(countStates(parseTaskStates("1_0|COMPLETED\n1_1|FAILED\n1_2|COMPLETED\n")),
            (Counts{{"COMPLETED", 2}, {"FAILED", 1}}));
  // --time=1 on a task that sleeps 2 minutes; extra fields after the state (ExitCode, Elapsed) are ignored.
  EXPECT_EQ(countStates(parseTaskStates("12_0|COMPLETED|0:0|00:00:01\n12_1|TIMEOUT|0:0|00:01:11\n")),
            (Counts{{"COMPLETED", 1}, {"TIMEOUT", 1}}));
}

TEST(SlurmStates, WhatDoesNotReadIsNotGuessedAt) {
  EXPECT_TRUE(parseTaskStates("").empty());
  EXPECT_TRUE(parseTaskStates("sacct: error: Problem talking to the database: Connection refused\n").empty());
  EXPECT_EQ(countStates(parseTaskStates("77|COMPLETED\n")), (Counts{{"COMPLETED", 1}}));  // not an array
  // A range that does not read is one entry, as printed.
  EXPECT_EQ(parseTaskStates("9_[3-1]|PENDING\n").size(), 1u);
  EXPECT_EQ(parseTaskStates("9_[0-15:4]|PENDING\n").size(), 4u);  // every 4th
  EXPECT_EQ(parseTaskStates("9_[0-99999999]|PENDING\n").size(), 100000u);  // bounded
}

}  // namespace
}  // namespace ks::cluster
