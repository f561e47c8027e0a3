#pragma once
// No process outlives its request: every descendant of the runner (children, their children, setsid'd
// sessions, double-forked daemons, new process groups) is found by walking /proc by parent pid, killed with
// SIGKILL and reaped. Daemons escape the tree only by being re-parented to the nearest child subreaper, so
// the runner becomes one (becomeChildSubreaper): orphans then stay its descendants. Threads are not
// processes: a thread a program started inside the runner is not touched here.
#include <sys/types.h>

#include <vector>

namespace ks::sandbox {

// PR_SET_CHILD_SUBREAPER on this process. False when the kernel refused.
bool becomeChildSubreaper();

// The live and zombie processes below `root`, found through /proc/<pid>/stat's parent pid, root excluded.
std::vector<pid_t> descendantsOf(pid_t root);
// The same without zombies (those have ended; only their parent's reaping is left).
std::vector<pid_t> liveDescendantsOf(pid_t root);

struct KillReport {
  int killed = 0;            // processes sent SIGKILL
  std::vector<pid_t> alive;  // still there when the grace ran out (stuck in the kernel, e.g. a GPU driver)
};

// Kills every descendant of this process except the processes in `except` (which are spared themselves;
// their descendants are not), reaps those that are (or become) our children, and repeats until none is left
// alive or `graceSeconds` have passed (processes forking while being killed are found on the next pass).
KillReport killDescendants(const std::vector<pid_t>& except = {}, double graceSeconds = 5);

// The same for the descendants of another process, `root` (spared itself): what a client does before it kills
// its runner. While `root` lives and is a child subreaper, an orphan below it is re-parented to it, so nothing
// leaves the tree during the walk; once `root` is gone, orphans belong to init and no walk finds them. Reaps
// nothing (they are not this process's children).
KillReport killDescendantsOf(pid_t root, double graceSeconds = 5);

}  // namespace ks::sandbox
