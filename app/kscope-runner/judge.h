#pragma once
// The judge: the half of kscope-runner that holds the client's protocol descriptors (executor_split.h) and
// never runs Python or a program. It reads the client's requests, answers malformed ones itself, sends the
// others to its executor one at a time, passes back the request's `phase` and `progress` events, and passes
// back exactly one answer (`result` or `error`) once it knows the request is over (the sync exchange of
// executor_link.h) and the answer is acceptable (core/protocol/result_acceptance.h, against the judge's own
// clock). Anything else the executor writes is tampering: a line that is no event, an event of another
// request, a second answer, an event after the answer, output between requests, a line over 256 MiB, an
// answer followed by the executor's end, an executor that exits 0 (its end of input) in the middle of a
// request. The request is then answered with a `tampering` error quoting it
// (runner_exits), the executor is killed and the judge exits kExitTampering; output between requests is
// reported on the next request. When the executor ends on its own, the judge ends the same way (its exit
// status, or the same signal), so the supervisor's crash reports read as they did with one process.
//
// Before it passes on an accepted answer the judge (a child subreaper) kills every process below it but the
// executor (core/sandbox/descendants.h) and removes what the request left outside its scratch folder
// (core/sandbox/request_leftovers.h): Judge::deliver. At its own end, however it comes (shutdown, end of
// input, tampering, the executor's exit or crash, SIGTERM from the client at a deadline, a cancel or a
// limit, or at the client's death, which it turns into SIGTERM), it kills every process below it, the executor's remains included, and cleans up after the
// request in flight before it exits.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>

#include "app/kscope-runner/protocol_channel.h"

namespace ks::runner {

inline constexpr int kExitTampering = 3;  // as after any error with runner_exits: a new runner is needed

// Serves the client until shutdown, the end of its input, tampering or the executor's end; returns the exit
// status (or raises the signal that killed the executor).
struct JudgeSettings {
  std::filesystem::path defaultCacheRoot;  // the executor's build cache, for a request that names none
  // What a request may add where builds go in the cache (KSCOPE_CACHE_QUOTA_MIB; request_leftovers.h).
  std::uint64_t cacheQuotaBytes = std::uint64_t(256) << 20;
};

int runJudge(ProtocolChannel& client, int link, pid_t executor, JudgeSettings settings);

}  // namespace ks::runner
