#pragma once
// What the reader tests ask of a RunFile's load issues: every issue as text, and whether one names a file,
// a line and a phrase.
#include <string>
#include <vector>

#include "core/model/run_file.h"

namespace ks::test {

inline std::vector<std::string> issueMessages(const RunFile& run) {
  std::vector<std::string> out;
  for (const LoadIssue& i : run.issues) out.push_back(i.toString());
  return out;
}

// An issue of a file whose path ends with `fileEnd`, at `line`, whose message contains `part`.
inline bool hasIssue(const RunFile& run, const std::string& fileEnd, int line, const std::string& part) {
  for (const LoadIssue& i : run.issues)
    if (i.file.ends_with(fileEnd) && i.line == line && i.message.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace ks::test
