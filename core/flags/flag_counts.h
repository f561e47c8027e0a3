#pragma once
// What "flagged" means, one definition for the CLI (`kscope summary`) and the GUI (status bar, task filter,
// Flags column) alike (docs/cli.md, "Flagged"): a candidate is flagged when one of its flags is a hack or
// suspicious; benign flags (a shortcut that is not cheating) do not flag it. A family's severity in a count
// is the worst severity its flags were raised with, not the catalog's default: a rule can raise one family at
// two severities (lowered-precision is a hack in Python code and suspicious in CUDA code).
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "core/flags/flag.h"

namespace ks {

bool countsAsFlagged(FlagSeverity severity);  // hack or suspicious
bool isFlagged(const std::vector<Flag>& flags);
// The worse of two severities (hack > suspicious > benign).
FlagSeverity worseSeverity(FlagSeverity a, FlagSeverity b);
// That order as a number: hack 3, suspicious 2, benign 1 (for sorting and "worst of" folds).
int severityRank(FlagSeverity severity);

struct FamilyCount {
  std::size_t candidates = 0;  // candidates with at least one flag of the family
  std::size_t flags = 0;
  FlagSeverity worst = FlagSeverity::Benign;  // the worst severity the family was raised with
};

struct FlagCounts {
  std::size_t checked = 0;  // candidates whose flags were counted
  std::size_t flagged = 0;  // ... that isFlagged
  std::map<std::string, FamilyCount> byFamily;

  void addCandidate(const std::vector<Flag>& flags);
};

}  // namespace ks
