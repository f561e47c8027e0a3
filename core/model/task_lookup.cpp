#include "core/model/task_lookup.h"

#include <algorithm>
#include <cctype>

#include "core/model/closest_names.h"
#include "core/model/text_trim.h"

namespace ks {
namespace {

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// "1/12" and "l1/12" as Task::key() writes a KernelBench key; anything else as typed.
std::string keySpelling(std::string_view typed) {
  if (!typed.empty() && isDigit(typed.front())) return "L" + std::string(typed);
  if (typed.size() > 1 && typed.front() == 'l' && isDigit(typed[1]))
    return "L" + std::string(typed.substr(1));
  return std::string(typed);
}

std::string tailOf(const std::string& key) {
  const std::size_t slash = key.rfind('/');
  return slash == std::string::npos ? key : key.substr(slash + 1);
}

std::string someKeys(const RunFile& run) {
  constexpr std::size_t kShown = 10;
  std::string keys;
  for (std::size_t i = 0; i < run.tasks.size() && i < kShown; ++i)
    keys += (i ? ", " : "") + run.tasks[i].key();
  if (run.tasks.size() > kShown) keys += ", … (" + std::to_string(run.tasks.size()) + " in all)";
  return keys;
}

}  // namespace

TaskLookup lookUpTask(const RunFile& run, std::string_view raw, std::string_view file) {
  const std::string in = " in " + std::string(file.empty() ? std::string_view(run.path) : file);
  const std::string_view typed = trimmed(raw);
  if (typed.empty()) return {nullptr, "no task given" + in + " (a task is named like L1/12)"};
  for (const std::string& spelling : {std::string(typed), keySpelling(typed)})
    if (const Task* t = run.findTask(spelling)) return {t, ""};

  // A tail that more than one named key ends in: name them.
  std::vector<std::string> endingIn;
  for (const Task& t : run.tasks)
    if (!t.id.empty() && t.id.size() > typed.size() && t.id.ends_with(typed) &&
        t.id[t.id.size() - typed.size() - 1] == '/')
      endingIn.push_back(t.id);
  if (endingIn.size() > 1)
    return {nullptr, std::to_string(endingIn.size()) + " tasks" + in + " end in /" + std::string(typed) +
                         ": " + alternatives(endingIn) + "; give the whole key"};

  // Each key, and a named key's tail too ("64x64x63" is near ".../64x64x64"); offered as the whole key.
  std::vector<std::string> spellings, keys;
  for (const Task& t : run.tasks) {
    spellings.push_back(t.key());
    keys.push_back(t.key());
    if (!t.id.empty() && t.id.find('/') != std::string::npos) {
      spellings.push_back(tailOf(t.id));
      keys.push_back(t.key());
    }
  }
  std::vector<std::string> offered;
  for (const std::string& near : closestNames(keySpelling(typed), spellings, spellings.size())) {
    const auto at =
        static_cast<std::size_t>(std::find(spellings.begin(), spellings.end(), near) - spellings.begin());
    if (std::find(offered.begin(), offered.end(), keys[at]) == offered.end()) offered.push_back(keys[at]);
    if (offered.size() == 3) break;
  }
  const std::string head = "no task " + std::string(typed) + in;
  if (run.tasks.empty()) return {nullptr, head + " (it has no tasks)"};
  if (!offered.empty()) return {nullptr, head + "; did you mean " + alternatives(offered) + "?"};
  return {nullptr, head + " (tasks: " + someKeys(run) + ")"};
}

}  // namespace ks
