#include "core/protocol/request_clock.h"

#include <variant>

namespace ks::protocol {

RequestClock::RequestClock(Clock::time_point sent) : sent_(sent) {}

void RequestClock::observe(const Event& event, Clock::time_point at) {
  if (const auto* phase = std::get_if<PhaseEvent>(&event)) {
    if (inTiming_) timingEnd_ = at;
    inTiming_ = phase->phase == Phase::Timing;
    if (inTiming_) {
      if (!seen_.timingSeen) timingStart_ = at;
      seen_.timingSeen = true;
      seen_.timingProgress.clear();
    }
  } else if (const auto* progress = std::get_if<ProgressEvent>(&event)) {
    if (inTiming_ && progress->phase == Phase::Timing)
      seen_.timingProgress.push_back({progress->done, progress->total, since(at)});
  }
}

ObservedRequest RequestClock::finish(Clock::time_point answered) const {
  ObservedRequest out = seen_;
  if (seen_.timingSeen)
    out.timingS = std::chrono::duration<double>((inTiming_ ? answered : timingEnd_) - timingStart_).count();
  out.totalS = since(answered);
  return out;
}

}  // namespace ks::protocol
