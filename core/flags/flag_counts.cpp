#include "core/flags/flag_counts.h"

#include <set>

namespace ks {
int severityRank(FlagSeverity s) {
  switch (s) {
    case FlagSeverity::Hack:
      return 3;
    case FlagSeverity::Suspicious:
      return 2;
    case FlagSeverity::Benign:
      return 1;
  }
  return 0;
}

bool countsAsFlagged(FlagSeverity severity) { return severity != FlagSeverity::Benign; }

bool isFlagged(const std::vector<Flag>& flags) {
  for (const Flag& f : flags)
    if (countsAsFlagged(f.severity)) return true;
  return false;
}

FlagSeverity worseSeverity(FlagSeverity a, FlagSeverity b) {
  return severityRank(a) >= severityRank(b) ? a : b;
}

void FlagCounts::addCandidate(const std::vector<Flag>& flags) {
  ++checked;
  if (isFlagged(flags)) ++flagged;
  std::set<std::string> families;
  for (const Flag& flag : flags) {
    FamilyCount& count = byFamily[flag.family];
    count.worst = count.flags == 0 ? flag.severity : worseSeverity(count.worst, flag.severity);
    ++count.flags;
    if (families.insert(flag.family).second) ++count.candidates;
  }
}

}  // namespace ks
