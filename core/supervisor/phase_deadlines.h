#pragma once
// How long each phase of a request may run, by the client's own rule (docs/runner-protocol.md, "Phases and
// deadlines"). A `phase` event says which phase the runner entered and the deadline it expects, but the
// executor that writes it runs the candidate, which can write the same line (`deadline_s: 1000000`). So:
//   - each phase's limit comes from PhaseLimits (the client's settings) and the request; an announced
//     deadline can only shorten a phase, never lengthen it;
//   - a phase announced again does not get a fresh budget: its time adds up over the request (a build that
//     interrupts a phase has its own budget, and builds add up too, to buildsPerRequest builds' worth);
//   - the scaled phases (probes, timing, profile, seed-method) scale with the time this client saw the
//     request spend in `correctness` (and in `timing`, for seed-method): every pair of calls the runner can
//     time there ran inside that time, so this bounds the call time the runner's own deadlines scale with.
// The announced deadline thus never makes a phase longer than this rule; nothing the candidate writes makes
// the request as a whole run longer than the sum of its phases' limits.
#include <chrono>
#include <map>
#include <optional>

#include "core/protocol/events.h"
#include "core/protocol/request.h"

namespace ks::supervisor {

// The defaults are the deadlines the runner announces for an honest program (core/engine/phase_deadlines.h).
struct PhaseLimits {
  double load = 120;            // executing the programs, constructing both models
  double build = 600;           // one load_inline/load call
  double nativeBuild = 1200;    // a native task's build (CuTe/CUTLASS kernels took 65-270 s on the H100)
  int buildsPerRequest = 4;     // the request's builds together may take this many builds' limit
  double correctness = 300;     // all seeds
  double firstCall = 60;        // the build op's one candidate call (reported as `correctness`)
  double timedFloor = 60;       // the scaled phases' floor
  double headroom = 3;          // times the calls' time
  double gpuShareWait = 300;    // added to each phase's limit with options.gpu_share (waits for others' timing)
};

class PhaseDeadlines {
 public:
  using Clock = std::chrono::steady_clock;

  // `maxPhaseSeconds` > 0 also caps every phase's entry (SupervisorOptions::maxPhaseSeconds).
  PhaseDeadlines(const protocol::Request& request, const PhaseLimits& limits, double maxPhaseSeconds = 0);

  // A `phase` event arrived at `at`, announcing `announcedS` (<= 0: none).
  void enter(protocol::Phase phase, double announcedS, Clock::time_point at);

  bool inPhase() const { return current_.has_value(); }
  // Seconds left before the phase in progress must end; nullopt before the first phase event.
  std::optional<double> secondsLeft(Clock::time_point at) const;
  // How long the phase in progress has run over the whole request (all its entries so far, this one too).
  double secondsInPhase(Clock::time_point at) const;

  // The client's limit of `phase` over the request (before any announced deadline), as of now: the scaled
  // phases' grows with the correctness time seen. For tests and messages.
  double limit(protocol::Phase phase) const;

 private:
  struct Entry {
    protocol::Phase phase;
    Clock::time_point since;
    double allowedS;  // this entry's deadline, from `since`
  };
  double spent(protocol::Phase phase) const;
  double perEntryCap(protocol::Phase phase) const;

  protocol::Request request_;
  PhaseLimits limits_;
  double maxPhaseSeconds_;
  std::map<protocol::Phase, double> spent_;  // closed entries' seconds, per phase
  std::map<protocol::Phase, int> entries_;   // entries so far, per phase
  std::optional<double> firstSeedMethodSeconds_;  // CUDA-L1's check: the first seed-method entry
  std::optional<Entry> current_;
};

}  // namespace ks::supervisor
