#pragma once
// What a re-run says about lines of the candidate's program: compiler diagnostics that map to a Python line
// (python_line), the line a Python error points at, and the candidate's frames of its traceback; also the
// diagnostics of a build the program caught and fell back from (evidence, shown as warnings). Problems not
// tied to a line of the program (a linker error, a crash) have line 0: they go to the list, not the editor.
// A failed build of the candidate's extension comes first with its cause (core/runs/failed_build.h): on the
// first compiler error's line, or on the line that binds the name the compiler could not see (`program`).
#include <QString>
#include <vector>

#include "core/nvcc/build_result.h"
#include "core/runs/measured_run.h"

namespace ks {

struct CodeProblem {
  enum class Severity { Error, Warning, Note };
  int line = 0;  // 1-based line of the candidate program; 0: not tied to one
  Severity severity = Severity::Error;
  QString message;  // one line for a person: "cuda.cu:12:5: identifier "x" is undefined"
};

std::vector<CodeProblem> candidateProblems(const runs::MeasuredRun& run, const std::string& program = {});

// "cause: bound-kernel — functions= names a __global__ kernel: ...; Repair (Ctrl+Shift+R) shows the fix",
// preceded by "this number is the PyTorch fallback's" when the program fell back; empty when no candidate
// build failed.
QString buildCauseText(const runs::MeasuredRun& run);

// The problems of a compile-only check of `program` (the GUI's Compile: nvcc alone, no GPU, for a chosen
// architecture; core/nvcc/python_sources_build.h): a failure's cause on its first error's line, the errors
// (and the warnings of the program's own sources) on their Python lines, and each kernel's ptxas resources
// as a note on the line that defines it.
std::vector<CodeProblem> compileProblems(const nvcc::BuildResult& result, const std::string& program);

}  // namespace ks
