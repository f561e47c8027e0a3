#pragma once
// Reads compiler output into Diagnostics. Understands the formats nvcc's tool chain prints:
//   CUDA front end   file.cu(12): error: message            (+ quoted line, caret, continuation lines)
//                    file.cu(12): warning #177-D: message   / note #3326-D: / catastrophic error:
//   host compiler    file.cpp:12:5: error: message          (gcc/clang; also fatal error, warning, note)
//   ptxas            ptxas error   : Entry function '_Z…' uses too much shared data (…)
//   nvcc driver      nvcc fatal   : Unsupported gpu architecture 'compute_999'
//   linker           /usr/bin/ld: x.o: undefined reference to `foo'
// Lines that are none of these (ptxas info, "N errors detected", include chains) are skipped.
#include <string>
#include <vector>

#include "core/nvcc/diagnostic.h"

namespace ks::nvcc {

std::vector<Diagnostic> parseDiagnostics(const std::string& compilerOutput);

}  // namespace ks::nvcc
