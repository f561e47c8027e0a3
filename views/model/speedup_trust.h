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

namespace ks {

class LoadedRun;
class MeasuredHistory;

struct SpeedupTrust {
  bool trusted = true;
  std::vector<std::string> reasons;  // for a person, one sentence each; empty when trusted
};

// Row `row` of `run`, with the runs of `history` (may be null).
SpeedupTrust speedupTrust(const LoadedRun& run, const MeasuredHistory* history, int row);

}  // namespace ks
