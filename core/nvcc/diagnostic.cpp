#include "core/nvcc/diagnostic.h"

namespace ks::nvcc {

const char* severityName(Severity s) {
  switch (s) {
    case Severity::Error:
      return "error";
    case Severity::Warning:
      return "warning";
    case Severity::Note:
      return "note";
    case Severity::Remark:
      return "remark";
  }
  return "error";
}

std::string Diagnostic::toString() const {
  std::string s = file.empty() ? tool : file;
  if (line > 0) s += ":" + std::to_string(line);
  if (line > 0 && column > 0) s += ":" + std::to_string(column);
  if (pythonLine) s += " (Python line " + std::to_string(*pythonLine) + ")";
  return s + ": " + severityName(severity) + ": " + message;
}

}  // namespace ks::nvcc
