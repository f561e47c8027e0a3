#pragma once
// What a party that does not run the candidate saw of one request, on its own steady clock: the wall time
// from sending the request to its answer, how long the timing phase lasted (from its `phase` event to the
// next phase event or the answer) and when the timing phase's `progress` events arrived. The judge in
// kscope-runner and every client (RunnerSupervisor, ServerClient) keep one per request, and check the answer
// against it with the one acceptance rule (result_acceptance.h). Arrival times are all a judge can trust:
// the numbers inside a result come from the process that ran the candidate.
#include <chrono>
#include <vector>

#include "core/protocol/events.h"

namespace ks::protocol {

struct ObservedRequest {
  double totalS = 0;           // request sent -> answer arrived
  bool timingSeen = false;     // a `timing` phase event arrived
  // Wall time from the first `timing` phase event to the end of the phase (the next phase event, or the
  // answer), interruptions included: a build a program starts inside a timed call is inside its time.
  double timingS = 0;
  struct Progress {
    int done = 0, total = 0;
    double atS = 0;  // seconds since the request was sent
  };
  // The timing phase's progress events since it was last entered (an interruption, e.g. a build the
  // program started, starts the list again, so its gaps hold only trials and warm-up calls).
  std::vector<Progress> timingProgress;
};

class RequestClock {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RequestClock(Clock::time_point sent = Clock::now());

  // Every event of the request as it arrives; only `phase` and `progress` events matter.
  void observe(const Event& event, Clock::time_point at = Clock::now());

  // What was seen, with the answer arriving at `answered`.
  ObservedRequest finish(Clock::time_point answered = Clock::now()) const;

 private:
  Clock::time_point sent_;
  bool inTiming_ = false;
  Clock::time_point timingStart_, timingEnd_;
  ObservedRequest seen_;
  double since(Clock::time_point at) const { return std::chrono::duration<double>(at - sent_).count(); }
};

}  // namespace ks::protocol
