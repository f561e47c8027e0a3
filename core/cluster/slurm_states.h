#pragma once
// The states of a Slurm job array's tasks, read from what `sacct -j JOB -X -n -P -o JobID,State` or
// `squeue -j JOB -r -h -o '%i|%T'` print, for `kscope slurm --status`. Slurm 22.05 (Debian 12)
// prints one line per task that started ("81234_0|COMPLETED", "81234_5|CANCELLED by 0"), but a pending
// array, or its tasks not started yet, as ONE line for many: "81234_[0-3%2]|PENDING", "81234_[0,2,5-7]",
// and a task may appear both on its own line and in such a range (tests/cluster/slurm_states_test.cpp holds
// real output of each). Counting lines would count a pending array of 100 tasks as one.
#include <map>
#include <string>
#include <string_view>

namespace ks::cluster {

// Task id ("81234_3"; a job that is no array task: its id) -> state ("COMPLETED", "FAILED", "PENDING", ...:
// the state's first word). A range stands for each of its tasks; a task's own line wins over a range that
// holds it. Lines without a '|' are skipped; ranges past 100,000 tasks in all are not expanded further.
std::map<std::string, std::string> parseTaskStates(std::string_view output);

// State -> how many tasks are in it.
std::map<std::string, int> countStates(const std::map<std::string, std::string>& taskStates);

}  // namespace ks::cluster
