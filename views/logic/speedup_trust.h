#pragma once
// Whether a row's speedup may be drawn as a win: the one rule the shape map and the roofline follow (and any
// view that colours a speedup as good). A speedup is not trusted when
//   - a static check caught a hack in the candidate's code (a hack-severity flag),
//   - the newest re-run of its recorded program raised a hack-severity runtime flag (runtime_evidence.h),
//   - that run fell back: its kernel's build failed and the program caught it and ran something else
//     (protocol::failedCandidateBuild), or its probes saw it run the reference's path (the runtime
//     fallback-to-reference flag) — the number is then the fallback's, not the kernel's.
// A benign static flag (a try/except that *could* fall back) does not make a number untrusted by itself.
#include <string>
#include <vector>

#include "core/runs/measured_run.h"

namespace ks {

class LoadedRun;
class MeasuredHistory;

struct SpeedupTrust {
  bool trusted = true;
  bool hack = false;      // a static or runtime hack flag speaks against it
  bool fellBack = false;  // the number is a fallback's (failed build caught, or the reference's path ran)
  std::vector<std::string> reasons;  // for a person, one sentence each; empty when trusted
};

// Row `row` of `run`, with the runs of `history` (may be null).
SpeedupTrust speedupTrust(const LoadedRun& run, const MeasuredHistory* history, int row);

// The part of the rule one re-run carries by itself (its probes' hack flags, a fallback), for the views that
// show a single run: the Measurements table, the run's header, the status bar. speedupTrust uses it for the
// newest run of the recorded program.
SpeedupTrust runTrust(const runs::MeasuredRun& run);

// What a text that shows the number says first: "caught hack", "fell back", "caught hack, fell
// back"; empty when trusted.
std::string trustHeadline(const SpeedupTrust& trust);

// How a number the file records for the row (a claim) is shown, in every pane that shows one (the task
// table, the candidate's header, Measurements, Analysis, the report, the slides): after the verdict
// (trustHeadline) when the rule speaks against the row, and struck through when a hack was caught. A
// fallback that a re-run found says so before the claim without striking it: the re-run timed the
// fallback, which does not tell whether the file's own run built the kernel.
struct ClaimDisplay {
  std::string verdict;  // trustHeadline(trust); empty: show the claim as it is
  bool struck = false;
};
ClaimDisplay claimDisplay(const SpeedupTrust& trust);

}  // namespace ks
