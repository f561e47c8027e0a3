#pragma once
// What the newest re-run of a row's recorded program raised at run time: the runner's runtime_flags (the
// `runtime_flags` of its evaluate result, docs/runner-protocol.md) read as ks::Flag with origin "runtime",
// with the run they came from and the device it ran on. The views show them beside the static flags: the
// Flags pane, the flag matrix, the editor's margin, the task table's Flags and Measured columns. Only a run
// of the recorded program counts: an edit's run says nothing about the program the file records.
#include <string>
#include <vector>

#include "core/flags/flag.h"
#include "core/runs/measured_run.h"

namespace ks {

class MeasuredHistory;

struct RuntimeEvidence {
  const runs::MeasuredRun* run = nullptr;  // the newest run of the recorded program; nullptr: never run
  std::string device;                      // the runner's device for it: "cpu", "cuda"
  std::vector<Flag> flags;                 // in the runner's order
  std::vector<std::string> skipped;        // runner flags this reader does not know
};

// Row `row`'s runtime evidence; empty without a history or a run with a result.
RuntimeEvidence runtimeEvidence(const MeasuredHistory* history, int row);

// The severity of a runner flag's severity name; false for a name this reader does not know.
bool runtimeSeverity(const std::string& name, FlagSeverity* severity);

// The families of the hack-severity flags of the newest run of row `row`'s recorded program, in the runner's
// order, each once (cheap: no conversion, for a table cell).
std::vector<std::string> runtimeHackFamilies(const MeasuredHistory* history, int row);

}  // namespace ks
