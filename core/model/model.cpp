#include <algorithm>

#include "core/model/candidate.h"
#include "core/model/run_file.h"
#include "core/model/task.h"

namespace ks {

std::optional<double> Candidate::speedup(const std::string& baseline) const {
  for (const auto& m : measurements)
    if (m.origin == "recorded" && m.baseline == baseline && m.speedup) return m.speedup;
  return std::nullopt;
}

std::optional<double> Candidate::speedup(const std::string& baseline, const std::string& mode) const {
  for (const auto& m : measurements)
    if (m.origin == "recorded" && m.baseline == baseline && m.mode == mode && m.speedup) return m.speedup;
  return std::nullopt;
}

const Measurement* Candidate::lastMeasured(const std::string& baseline) const {
  const Measurement* last = nullptr;
  for (const auto& m : measurements)
    if (m.origin == "measured" && m.baseline == baseline) last = &m;
  return last;
}

std::string Task::key() const {
  if (!id.empty()) return id;
  return "L" + std::to_string(level) + "/" + std::to_string(number);
}

std::string LoadIssue::toString() const {
  std::string s = file;
  if (line > 0) s += ":" + std::to_string(line);
  s += severity == Severity::Error ? ": error: " : ": warning: ";
  return s + message;
}

std::size_t RunFile::candidateCount() const {
  std::size_t n = 0;
  for (const auto& t : tasks) n += t.candidates.size();
  return n;
}

std::size_t RunFile::errorCount() const {
  return static_cast<std::size_t>(std::count_if(issues.begin(), issues.end(), [](const LoadIssue& i) {
    return i.severity == LoadIssue::Severity::Error;
  }));
}

const Task* RunFile::findTask(const std::string& key) const {
  for (const auto& t : tasks)
    if (t.key() == key) return &t;
  if (key.empty()) return nullptr;
  const Task* found = nullptr;
  for (const auto& t : tasks) {
    const std::string& k = t.id;  // only named keys: "12" must not pick L1/12
    if (k.size() > key.size() && k.ends_with(key) && k[k.size() - key.size() - 1] == '/') {
      if (found) return nullptr;  // ambiguous
      found = &t;
    }
  }
  return found;
}

}  // namespace ks
