#pragma once
// The events kscope-runner writes on stdout (docs/runner-protocol.md, "Events"), and the errors that end a
// request, including the kinds only the supervisor reports (timeout, crash, memory, cancelled).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/protocol/evaluate_result.h"

namespace ks::protocol {

using Json = nlohmann::ordered_json;

inline constexpr int kProtocolVersion = 1;

// SeedMethod: a seed's own evaluation beside KernelScope's (options.cuda_l1_eval), after its timing and profile;
// its progress counts that method's global trials, not KernelScope's trials.
enum class Phase { Load, Build, Correctness, Probes, Timing, Profile, SeedMethod };

// Tampering: the runner's answer broke the protocol in a way only a program that reached the channel, or lied
// about its own measurement, could make it (docs/runner-protocol.md, "Threat model"); never a trusted number.
// Processes: the runner's process tree held more processes than the client allows.
enum class ErrorKind { Protocol, Load, Build, Runtime, Timeout, Crash, Memory, Cancelled, Tampering, Processes };

// One frame of a Python traceback, innermost last.
struct TraceFrame {
  std::string file;
  int line = 0;
  std::string function;
  std::string text;     // the source line, stripped
  std::string program;  // "reference" | "candidate" when the frame is in one of the request's programs
  bool operator==(const TraceFrame&) const = default;
};

struct ErrorInfo {
  ErrorKind kind = ErrorKind::Runtime;
  std::string message;
  std::string program;      // "reference" | "candidate": whose code failed, when known
  std::optional<int> line;  // 1-based line of that program: the innermost traceback frame in it, or the
                            // Python line of the first compiler error
  std::string phase;        // the phase it happened in ("load", "timing", ...); empty for protocol errors
  std::vector<TraceFrame> traceback;    // the last frames (load, runtime)
  std::vector<Diagnostic> diagnostics;  // build
  bool runnerExits = false;             // the runner exits after this error (the CUDA context is unusable)
  // Supervisor only.
  std::optional<int> signal, exitStatus;
  std::string stderrTail;
  bool operator==(const ErrorInfo&) const = default;
};

struct ReadyEvent {
  int protocol = kProtocolVersion;
  std::string runner;
  std::int64_t pid = 0;
  bool operator==(const ReadyEvent&) const = default;
};

struct PhaseEvent {
  std::string id;
  Phase phase = Phase::Load;
  double deadlineS = 0;
  bool operator==(const PhaseEvent&) const = default;
};

struct ProgressEvent {
  std::string id;
  Phase phase = Phase::Timing;
  int done = 0, total = 0;
  bool operator==(const ProgressEvent&) const = default;
};

// An extension build a program started (load/load_inline) has finished: compiled, came from the cache, or
// failed, in which case the program may go on without its kernel (a try/except fallback). Sent as it happens,
// so a person watching a long run knows whether the kernel or a fallback is being measured; informational like
// `progress` (the result's `build.extensions` is the record).
struct BuildEvent {
  std::string id;
  std::string program;  // "candidate" | "reference"
  std::string module;   // the extension's name
  bool ok = false;
  bool cacheHit = false;
  double seconds = 0;
  std::string cause;  // a failed build's cause (core/repair/build_cause.h names); empty when ok or unknown
  bool operator==(const BuildEvent&) const = default;
};

// `result` is the op's payload: {"environment": ...} for hello, an EvaluateResult or BuildResult object,
// {} for shutdown. `ok` is correctness.passed for evaluate and true otherwise.
struct ResultEvent {
  std::string id;
  bool ok = true;
  Json result = Json::object();
  bool operator==(const ResultEvent&) const = default;
};

struct ErrorEvent {
  std::string id;
  ErrorInfo error;
  bool operator==(const ErrorEvent&) const = default;
};

using Event = std::variant<ReadyEvent, PhaseEvent, ProgressEvent, BuildEvent, ResultEvent, ErrorEvent>;

// How a request ended, as a runner client returns it: the runner's result, or the error that ended it.
using EndEvent = std::variant<ResultEvent, ErrorEvent>;

// An evaluate request's end, decoded: the evaluation its result carries, or the error that ended it. What
// the results store keeps of a re-run (core/store/stored_result.h).
struct EvaluateEnd {
  std::string id;  // the request's; empty for a request that was never sent
  std::variant<EvaluateResult, ErrorInfo> outcome;
};

const char* phaseName(Phase phase);  // "load", "build", "correctness", "probes", "timing", "profile", "seed-method"
const char* errorKindName(ErrorKind kind);  // "protocol", "load", ...

}  // namespace ks::protocol
