#pragma once
// One compiler message (nvcc front end, host compiler, ptxas, nvcc driver, linker), located in the file the
// compiler was given and, for sources embedded in a Python program, on the Python line they came from.
#include <optional>
#include <string>

namespace ks::nvcc {

enum class Severity { Error, Warning, Note, Remark };
const char* severityName(Severity s);  // "error", "warning", "note", "remark" (the protocol's spelling)

struct Diagnostic {
  std::string file;  // as the compiler named it; empty for ptxas and nvcc driver messages with no file
  int line = 0;      // 1-based line in `file`; 0 when the tool gave none
  int column = 0;    // 1-based; 0 when unknown
  Severity severity = Severity::Error;
  std::string message;  // a multi-line message keeps its continuation lines, joined with '\n'
  std::string tool;     // "nvcc" (CUDA front end), "host" (gcc/clang), "ptxas", "nvcc-driver", "linker"
  std::string excerpt;  // the source line the compiler quoted under the message, if it quoted one
  std::optional<int> pythonLine;  // set when `file` is a source embedded in a Python program

  // "file:line:column: error: message" (parts the tool did not give are left out)
  std::string toString() const;
};

}  // namespace ks::nvcc
