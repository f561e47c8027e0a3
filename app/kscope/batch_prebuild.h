#pragma once
// The build stage of `kscope batch`: before anything is timed, every candidate that compiles something
// (a native .cu, or a Python program calling torch.utils.cpp_extension) is built by the runner's own
// `build` op (docs/runner-protocol.md) in N runners at once. They share the runner's build cache, so the
// runner that later times the candidate imports the very library that was built (cache_hit) instead of
// compiling it serially. Builds finish before timing starts: compilers never share the CPU with a timed run.
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/model/task.h"
#include "core/protocol/events.h"
#include "core/protocol/request.h"
#include "core/supervisor/supervisor_options.h"

namespace ks::cli {

struct BatchEntry {
  const Task* task;
  const Candidate* candidate;
  std::string codeHash;
};

// True when evaluating the candidate compiles code: a native kernel, or a program using cpp_extension.
bool compilesCode(const Candidate& candidate);

struct PrebuildOutcome {
  bool attempted = false;        // false: nothing to build for this entry
  protocol::EndEvent end;        // the `build` request's end (result or error)
  nlohmann::ordered_json event;  // its JSON, as the batch's lines hold it
  double seconds = 0;            // wall time of the request, runner start-up included
  // The build request failed for a reason evaluating again would only repeat (a compiler error, or the
  // candidate's first call timing out): the entry is reported with this event, untimed. Other errors (a
  // build past its deadline, a crash, a Python error) leave the entry to the timing run.
  bool final() const;
};

// Runs the builds on `jobs` runners; one outcome per entry (same order). `progress` is called from worker
// threads, serialized, after each attempted build. Stops early (remaining entries unattempted) once
// `stopRequested` returns true (polled every 0.1 s); builds in flight are then cancelled.
std::vector<PrebuildOutcome> prebuildAll(
    const std::vector<BatchEntry>& entries, const supervisor::SupervisorOptions& base,
    const protocol::Options& options, int jobs, const std::function<bool()>& stopRequested,
    const std::function<void(std::size_t index, const PrebuildOutcome&, std::size_t done, std::size_t total)>&
        progress);

}  // namespace ks::cli
