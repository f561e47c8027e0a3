#pragma once
// Where the engine reports its progress: `phase` events (each with the deadline the runner expects; the client
// enforces limits of its own, which this can only shorten: core/supervisor/phase_deadlines.h), `progress`
// events and `build` events (an extension build a program started has finished). The runner writes them to
// the protocol stream.
#include <optional>
#include <utility>

#include "core/protocol/events.h"

namespace ks::engine {

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void phase(protocol::Phase phase, double deadlineS) = 0;
  virtual void progress(protocol::Phase phase, int done, int total) = 0;
  virtual void built(const protocol::ExtensionBuild& build) = 0;
};

// Remembers the phase in progress, so a build that a program starts in the middle of a phase (load_inline at
// import or in the first forward) can report `build` and then hand the phase back with a fresh deadline.
class PhaseReporter {
 public:
  explicit PhaseReporter(EventSink& sink) : sink_(sink) {}

  void enter(protocol::Phase phase, double deadlineS) {
    current_ = {phase, deadlineS + allowanceS_};
    sink_.phase(phase, deadlineS + allowanceS_);
  }
  // Seconds added to every deadline from now on: time a phase may spend waiting for the GPU (gpu_share.h).
  void allowForWaits(double seconds) { allowanceS_ = seconds; }
  void progress(int done, int total) {
    if (current_) sink_.progress(current_->first, done, total);
  }
  void built(const protocol::ExtensionBuild& build) { sink_.built(build); }
  // Reports `phase` without forgetting the current one; resume() re-enters that.
  void interrupt(protocol::Phase phase, double deadlineS) { sink_.phase(phase, deadlineS + allowanceS_); }
  void resume() {
    if (current_) sink_.phase(current_->first, current_->second);
  }
  std::optional<protocol::Phase> current() const {
    return current_ ? std::optional(current_->first) : std::nullopt;
  }

 private:
  EventSink& sink_;
  std::optional<std::pair<protocol::Phase, double>> current_;
  double allowanceS_ = 0;
};

}  // namespace ks::engine
