#pragma once
// Everything read from one file or folder: tasks, candidates, and the problems met while reading.
#include <cstddef>
#include <string>
#include <vector>

#include "core/model/task.h"

namespace ks {

// A problem met while reading input. Never fatal: the rest of the file still loads.
struct LoadIssue {
  enum class Severity { Error, Warning };
  std::string file;
  int line = 0;         // 1-based; 0 when the problem is not tied to a line (unreadable file, empty file)
  std::string message;  // what was wrong and what was expected, for a person
  Severity severity = Severity::Error;
  std::string toString() const;  // "file:line: error: message"
};

struct RunFile {
  std::string path;    // the file or folder it came from
  std::string format;  // "cuda-l1", "kscope-run", "kernelbench", "cuda-source", "cuda-l2", "good-kernels",
                       // "kernelbench-run"
  std::string title;   // human title (run header or file name)
  std::string description;
  std::vector<Task> tasks;
  std::vector<LoadIssue> issues;

  std::size_t candidateCount() const;
  std::size_t errorCount() const;
  // By Task::key() ("L1/12", "LayerNorm", "h100_F32F16F16F32/64x64x64"); else, when exactly one task's id
  // (Task::id) ends in "/" + key, that task ("64x64x64" in a run of one CUDA-L2 release). nullptr when none.
  const Task* findTask(const std::string& key) const;
};

}  // namespace ks
