#include "core/cluster/slurm_states.h"

#include <charconv>
#include <cstddef>
#include <set>
#include <vector>

#include "core/model/text_trim.h"

namespace ks::cluster {
namespace {

constexpr std::size_t kMostTasks = 100000;

bool number(std::string_view text, long long& value) {
  if (text.empty()) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && value >= 0;
}

// "0,2,5-7", "0-3%2" (at most 2 at once), "0-15:4" (every 4th): the task numbers; false when it does not read.
bool expandRange(std::string_view list, std::vector<long long>& tasks, std::size_t& budget) {
  list = list.substr(0, list.find('%'));
  while (!list.empty()) {
    const auto comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    long long step = 1;
    if (const auto colon = item.find(':'); colon != std::string_view::npos) {
      if (!number(item.substr(colon + 1), step) || step == 0) return false;
      item = item.substr(0, colon);
    }
    long long first = 0, last = 0;
    if (const auto dash = item.find('-'); dash != std::string_view::npos) {
      if (!number(item.substr(0, dash), first) || !number(item.substr(dash + 1), last) || last < first) return false;
    } else if (!number(item, first)) {
      return false;
    } else {
      last = first;
    }
    for (long long t = first; t <= last; t += step) {
      if (budget == 0) return true;
      --budget;
      tasks.push_back(t);
    }
  }
  return true;
}

}  // namespace

std::map<std::string, std::string> parseTaskStates(std::string_view output) {
  std::map<std::string, std::string> states;
  std::set<std::string> ownLine;  // tasks named on a line of their own
  std::size_t budget = kMostTasks;
  while (!output.empty()) {
    const auto newline = output.find('\n');
    const std::string_view line = output.substr(0, newline);
    output = newline == std::string_view::npos ? std::string_view() : output.substr(newline + 1);
    const auto bar = line.find('|');
    if (bar == std::string_view::npos) continue;
    const std::string_view id = trimmed(line.substr(0, bar), kCSpaces);
    std::string_view state = trimmed(line.substr(bar + 1), kCSpaces);
    state = state.substr(0, state.find('|'));  // more fields after the state
    state = state.substr(0, state.find(' '));  // "CANCELLED by 0"
    if (id.empty() || state.empty()) continue;
    const auto open = id.find("_[");
    if (open == std::string_view::npos || id.back() != ']') {
      states[std::string(id)] = std::string(state);
      ownLine.insert(std::string(id));
      continue;
    }
    std::vector<long long> tasks;
    const std::string job(id.substr(0, open));
    if (!expandRange(id.substr(open + 2, id.size() - open - 3), tasks, budget)) {
      states[std::string(id)] = std::string(state);  // unreadable: counted as one, as printed
      continue;
    }
    for (long long t : tasks) {
      const std::string task = job + "_" + std::to_string(t);
      if (!ownLine.count(task)) states[task] = std::string(state);
    }
  }
  return states;
}

std::map<std::string, int> countStates(const std::map<std::string, std::string>& taskStates) {
  std::map<std::string, int> counts;
  for (const auto& [task, state] : taskStates) ++counts[state];
  return counts;
}

}  // namespace ks::cluster
