#pragma once
// The one rule for "this number is the PyTorch fallback's": a candidate extension that did not build while
// the evaluation still produced a result means the program caught the failure and ran its PyTorch
// fallback, so the speedup measured is the fallback's, not the kernel's. `kscope run`, `batch` and
// `check --run` print this note first, the GUI shows it before any speedup of that result (and never as a
// win), and bench/cuda_l1_report.py reads it from the batch line's "fallback".
#include <nlohmann/json.hpp>
#include <string>

#include "core/protocol/evaluate_result.h"
#include "core/protocol/events.h"

namespace ks::runs {

// "this number is the PyTorch fallback's: extension 'x' did not build (bound-kernel: functions= names a
// __global__ kernel: ...)"; empty when every candidate extension built.
std::string fallbackNote(const protocol::BuildReport& build);
// Same, read from a runner end event's JSON (batch lines, store rows): {"event": "result", "result": ...}.
std::string fallbackNote(const nlohmann::ordered_json& endEvent);
// The result's number is its fallback's (fallbackNote is not empty).
bool fellBack(const protocol::BuildReport& build);

// While a run goes on, what a `build` event means, in the same words: "candidate extension 'x' compiled in
// 12.3 s", "... came from the build cache", or "candidate extension 'x' did not build (cause: ...): if the
// program goes on, it runs its PyTorch fallback and any number is the fallback's".
std::string buildEventNote(const protocol::BuildEvent& event);

}  // namespace ks::runs
