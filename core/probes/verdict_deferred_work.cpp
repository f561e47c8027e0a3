// host-thread and extra-stream from deferred work: an output that changed after the call returned (deferred-work).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void deferredWork(const ProbeEvidence& e, Flags& out) {
  const DeferredEvidence& d = e.deferred;
  if (!d.ran || d.changedAfterReturn == 0) return;
  const bool threads = !d.newThreads.empty() || e.device == "cpu";
  std::string names;
  for (const std::string& n : d.newThreads) names += (names.empty() ? "" : ", ") + n;
  add(out, threads ? "host-thread" : "extra-stream", "hack", 0.9, "deferred-work",
      "The output changed after the call returned: " + count(d.changedAfterReturn, d.numel) +
          " values differ between a read at return and one " + num(d.delayMs) +
          " ms later, after a device-wide synchronize" +
          (names.empty() ? "" : "; threads the program started were alive (" + names + ")") + ".",
      {{"changed_after_return", d.changedAfterReturn},
       {"numel", d.numel},
       {"delay_ms", d.delayMs},
       {"new_threads", d.newThreads},
       {"native_threads_before", d.nativeThreadsBefore},
       {"native_threads_after", d.nativeThreadsAfter}});
}

}  // namespace ks::engine::verdicts
