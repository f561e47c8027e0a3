#pragma once
// The one rule for accepting a runner's `result` (docs/runner-protocol.md, "Threat model"). The judge in
// kscope-runner applies it to what its executor wrote, against the judge's clock; every client applies it
// to what the runner wrote, against its own. A result is accepted only when it reads completely as the
// op's payload, says the same thing twice where it says it twice (`ok` and correctness.passed, each seed),
// and its timing agrees with the wall time the checker saw itself:
//  - the timed calls it claims fit in the timing phase's wall time (they ran inside it; a build a program
//    started mid-phase counts, it may have been inside a timed call), with kArrivalSlackS
//    and kArrivalSlackShare for when the events were read;
//  - the timing phase did not take far longer than the calls it claims: between its first and last progress
//    events, each iteration (one call per model) may take its claimed time kCallTimeFactor times over, plus
//    kCallOverheadS per call and the inputs' clone at kCloneSecondsPerByte, plus kFixedAllowanceS once.
// The allowances are generous on purpose: an honest result is never rejected (a loaded 2-core machine, a
// 512 MiB input cloned on the CPU before every call); what is caught is a result that contradicts the
// clock (100 trials of 0.01 ms after 2 s of timing), not a lie that fits within it.
#include <optional>
#include <string>

#include "core/protocol/events.h"
#include "core/protocol/request.h"
#include "core/protocol/request_clock.h"

namespace ks::protocol {

inline constexpr double kArrivalSlackS = 0.5;
inline constexpr double kArrivalSlackShare = 0.02;
inline constexpr double kFixedAllowanceS = 1.0;
inline constexpr double kCallOverheadS = 0.0025;
inline constexpr double kCloneSecondsPerByte = 2e-9;  // 0.5 GB/s: allocate, first-touch and copy
inline constexpr double kCallTimeFactor = 4;

// Why `result`, the answer to a request of `op`, cannot be accepted (the evidence, one sentence with the
// numbers), or nullopt when it can.
std::optional<std::string> rejectResult(Op op, const ResultEvent& result, const ObservedRequest& observed);

// The error that replaces an answer that was not accepted: kind `tampering`, the evidence in the message,
// runner_exits (a runner whose channel carried it is not asked again).
ErrorEvent tamperingError(const std::string& requestId, const std::string& evidence, const std::string& phase);

}  // namespace ks::protocol
