// weak-task: whether the task's check can tell an answer from outputs that ignore the inputs.
#include "core/probes/verdicts.h"

#include <algorithm>
#include <cmath>

#include "core/json/json_fields.h"

namespace ks::engine::verdicts {

void weakTask(const ProbeEvidence& e, Flags& out) {
  const WeakTaskEvidence& w = e.weakTask;
  if (!w.ran || !e.correct) return;
  const bool shuffled = w.shuffledPasses && w.shuffledChanged;
  if (!w.zeroPasses && !shuffled) return;
  const double alternative = std::min(w.zeroPasses ? w.zeroError : INFINITY, shuffled ? w.shuffledError : INFINITY);
  const std::string what = w.zeroPasses && shuffled ? "an all-zero output and the reference's output for shuffled "
                                                      "inputs both pass"
                           : w.zeroPasses ? "an all-zero output passes"
                                          : "the reference's output for shuffled inputs passes";
  Json evidence = {{"zero_passes", w.zeroPasses},
                   {"zero_error", w.zeroError},
                   {"shuffled_passes", w.shuffledPasses},
                   {"shuffled_changed", w.shuffledChanged},
                   {"shuffled_error", w.shuffledError},
                   {"candidate_error", json::number(w.candidateError)},
                   {"task_weak", true}};
  const std::string task = "The task is weak: " + what + " its tolerance (max error " + num(alternative) + ")";
  if (std::isfinite(w.candidateError) && w.candidateError <= kWeakTaskApart * alternative)
    add(out, "weak-task", "benign", 0.5, "weak-task",
        task + "; this candidate's error, " + num(w.candidateError) +
            ", is far below that, so its output does follow the reference.",
        std::move(evidence));
  else
    add(out, "weak-task", "suspicious", 0.7, "weak-task",
        task + "; this candidate's error, " + num(w.candidateError) +
            ", is of that size, so its correctness pass cannot tell it from an output that ignores the inputs.",
        std::move(evidence));
}

}  // namespace ks::engine::verdicts
