#pragma once
// The candidate's extension build that failed in a re-run, for every front end that shows it: its cause
// (core/repair/build_cause.h), the compiler line that decided it, the line of the candidate's program to
// show it on, and whether the program caught it and fell back (fallback_note.h) or the run ended there.
#include <optional>
#include <string>
#include <string_view>

#include "core/repair/build_cause.h"
#include "core/runs/measured_run.h"

namespace ks::runs {

struct FailedBuild {
  std::string extension;  // the load_inline name
  repair::BuildCause cause = repair::BuildCause::Unknown;
  std::string evidence;  // the compiler line that decided the cause
  // 1-based line of the candidate program: the first compiler error's Python line; else, when `program`
  // is given, the line that binds the name the evidence names (functions=["kernel"]); 0 when neither.
  int line = 0;
  bool fellBack = false;  // a result: the number measured is the PyTorch fallback's
};

// nullopt when every candidate extension built (or the run failed for another reason).
std::optional<FailedBuild> failedBuild(const MeasuredRun& run, std::string_view program = {});

}  // namespace ks::runs
