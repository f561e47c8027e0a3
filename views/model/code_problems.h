#pragma once
// What a re-run says about lines of the candidate's program: compiler diagnostics that map to a Python line
// (python_line), the line a Python error points at, and the candidate's frames of its traceback; also the
// diagnostics of a build the program caught and fell back from (evidence, shown as warnings). Problems not
// tied to a line of the program (a linker error, a crash) have line 0: they go to the list, not the editor.
#include <QString>
#include <vector>

#include "core/runs/measured_run.h"

namespace ks {

struct CodeProblem {
  enum class Severity { Error, Warning, Note };
  int line = 0;  // 1-based line of the candidate program; 0: not tied to one
  Severity severity = Severity::Error;
  QString message;  // one line for a person: "cuda.cu:12:5: identifier "x" is undefined"
};

std::vector<CodeProblem> candidateProblems(const runs::MeasuredRun& run);

}  // namespace ks
