#include "views/logic/runtime_evidence.h"

#include <algorithm>

#include "core/flags/runtime_flags.h"
#include "views/logic/measured_history.h"

namespace ks {

RuntimeEvidence runtimeEvidence(const MeasuredHistory* history, int row) {
  RuntimeEvidence out;
  out.run = history ? history->latestOfRecorded(row) : nullptr;
  if (!out.run || !out.run->result) return out;
  out.device = out.run->result->device;
  RuntimeFlags read = runtimeFlags(*out.run->result);
  out.flags = std::move(read.flags);
  out.skipped = std::move(read.skipped);
  return out;
}

bool runtimeSeverity(const std::string& name, FlagSeverity* severity) {
  if (name == "hack")
    *severity = FlagSeverity::Hack;
  else if (name == "suspicious")
    *severity = FlagSeverity::Suspicious;
  else if (name == "benign")
    *severity = FlagSeverity::Benign;
  else
    return false;
  return true;
}

std::vector<std::string> runtimeHackFamilies(const MeasuredHistory* history, int row) {
  std::vector<std::string> families;
  const runs::MeasuredRun* run = history ? history->latestOfRecorded(row) : nullptr;
  if (!run || !run->result) return families;
  for (const auto& f : run->result->runtimeFlags)
    if (f.severity == "hack" && std::find(families.begin(), families.end(), f.family) == families.end())
      families.push_back(f.family);
  return families;
}

}  // namespace ks
