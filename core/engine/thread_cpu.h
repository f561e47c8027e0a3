#pragma once
// CPU time of this process's native threads, per thread (/proc/self/task/<tid>/stat: user + system time), for
// the slowed-reference family: threads the candidate's program started that run while the reference is timed.
// Times only: a comparison of times from two loaded moments can miss such a thread when the reference happens
// to run while it waits (tests/hacks/slowed-reference/idle_warmer_thread.py steps aside during the
// candidate's calls), where the CPU it used during the reference's calls cannot.
#include <sys/types.h>

#include <map>
#include <set>
#include <vector>

namespace ks::engine {

// The ids of this process's threads now (/proc/self/task); empty where it cannot be read.
std::vector<pid_t> processThreadIds();

using ThreadTimes = std::map<pid_t, double>;  // thread id -> CPU milliseconds used since it started

// Every thread of this process now; an empty map where /proc cannot be read.
ThreadTimes threadCpuTimes();
std::set<pid_t> threadIds(const ThreadTimes& times);

// CPU milliseconds the threads not in `baseline` used between `before` and `after` (a thread first seen in
// `after` counts from its start), and how many such threads ran at all.
struct ForeignCpu {
  double ms = 0;
  int threads = 0;
};
ForeignCpu foreignCpuBetween(const ThreadTimes& before, const ThreadTimes& after, const std::set<pid_t>& baseline);

}  // namespace ks::engine
