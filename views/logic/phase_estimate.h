#pragma once
// How long the phase in progress of a re-run still has, for the progress line (a CPU run of CUDA-L1 L1/12 at
// 4096², one torch thread, sits at "correctness 1/5" for minutes, and the line should say for how long). The
// runner reports a phase's steps as they end (a correctness seed is one call of the reference and one of the
// candidate; a timing step one call of each), so the time the finished steps took, since the phase began,
// times the steps left is the estimate. No estimate before the first step ends.
#include <QString>
#include <vector>

namespace ks {

// `seconds`: since the phase (re)started with `doneAtStart` of its steps done; `done` of `total` now.
// "1/5 · 3 min so far · about 12 min left"; "0/5 · 40 s so far" before a step ended; "1/5" when
// nothing is known about the time.
QString phaseEstimate(double seconds, int doneAtStart, int done, int total);
// About how long a queue of re-runs has left on `runners` runners working at once (one per GPU): each job
// takes `meanJobSeconds` (the mean of the queue's jobs that ended); a job in flight for `inFlightSeconds[i]`
// has what is left of that mean (nothing once it ran longer), and each of the `waiting` jobs goes to the
// runner that frees up first. The seconds until the last one ends; < 0 when the mean is not known (no job
// ended yet).
double queueSecondsLeft(double meanJobSeconds, const std::vector<double>& inFlightSeconds, int waiting,
                        int runners);
// "40 s", "3 min", "1 h 05 min"
QString roughDuration(double seconds);

}  // namespace ks
