#pragma once
// How a run ended, read from the `outcome` strings the results store and the run format write: "correct",
// "incorrect" (the output did not match the reference) or anything else, "error" or a runner's error kind
// (it did not build, crashed, timed out). One rule for a re-run here (MeasuredRun) and for a measurement a
// file records (Measurement::outcome), so that the views colour a file's failed candidate like a failed
// re-run.
#include <string_view>

#include "core/model/measurement.h"

namespace ks::runs {

enum class Outcome { Correct, Incorrect, Error };

inline Outcome outcomeOf(std::string_view outcome) {
  if (outcome == "correct") return Outcome::Correct;
  if (outcome == "incorrect") return Outcome::Incorrect;
  return Outcome::Error;
}

// A recorded measurement that says nothing of its outcome is a number, which counts as correct.
inline Outcome outcomeOf(const Measurement& m) {
  return m.outcome.empty() ? Outcome::Correct : outcomeOf(std::string_view(m.outcome));
}

}  // namespace ks::runs
