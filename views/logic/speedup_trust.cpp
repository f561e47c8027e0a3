#include "views/logic/speedup_trust.h"

#include "core/protocol/evaluate_result.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/runtime_evidence.h"
#include "core/model/add_once.h"

namespace ks {
namespace {

std::string joinedByCommas(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

}  // namespace

SpeedupTrust runTrust(const runs::MeasuredRun& measured) {
  SpeedupTrust trust;
  if (!measured.result) return trust;
  std::vector<std::string> runtimeHacks;
  bool fellBackAtRunTime = false;
  for (const auto& f : measured.result->runtimeFlags) {
    FlagSeverity severity;
    if (runtimeSeverity(f.severity, &severity) && severity == FlagSeverity::Hack)
      addOnce(runtimeHacks, f.family);
    if (f.family == "fallback-to-reference") fellBackAtRunTime = true;
  }
  if (!runtimeHacks.empty()) {
    trust.hack = true;
    trust.reasons.push_back("its re-run's probes caught a hack: " + joinedByCommas(runtimeHacks));
  }
  if (fellBackAtRunTime) {
    trust.fellBack = true;
    trust.reasons.push_back("fell back: its re-run ran the reference's path, not its kernel");
  }
  if (const protocol::ExtensionBuild* failed = protocol::failedCandidateBuild(measured.result->build)) {
    trust.fellBack = true;
    trust.reasons.push_back("fell back: its kernel " + failed->name +
                            " failed to build and the program ran its fallback" +
                            (failed->cause.empty() ? std::string() : " (" + failed->cause + ")"));
  }
  trust.trusted = trust.reasons.empty();
  return trust;
}

SpeedupTrust speedupTrust(const LoadedRun& run, const MeasuredHistory* history, int row) {
  SpeedupTrust trust;
  if (row < 0 || row >= run.rowCount()) return trust;
  std::vector<std::string> staticHacks;
  for (const Flag& f : run.flags(row))
    if (f.severity == FlagSeverity::Hack) addOnce(staticHacks, f.family);
  if (!staticHacks.empty()) {
    trust.hack = true;
    trust.reasons.push_back("caught hack in its code: " + joinedByCommas(staticHacks));
  }
  if (const runs::MeasuredRun* measured = history ? history->latestOfRecorded(row) : nullptr) {
    const SpeedupTrust ofRun = runTrust(*measured);
    trust.hack = trust.hack || ofRun.hack;
    trust.fellBack = ofRun.fellBack;
    trust.reasons.insert(trust.reasons.end(), ofRun.reasons.begin(), ofRun.reasons.end());
  }
  trust.trusted = trust.reasons.empty();
  return trust;
}

std::string trustHeadline(const SpeedupTrust& trust) {
  if (trust.hack && trust.fellBack) return "caught hack, fell back";
  if (trust.hack) return "caught hack";
  if (trust.fellBack) return "fell back";
  return {};
}

ClaimDisplay claimDisplay(const SpeedupTrust& trust) { return {trustHeadline(trust), trust.hack}; }

}  // namespace ks
