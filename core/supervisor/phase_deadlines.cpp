#include "core/supervisor/phase_deadlines.h"

#include <algorithm>
#include <limits>

namespace ks::supervisor {
namespace {

using protocol::Phase;

// The runtime probes' calls of both models (core/engine/runtime_probes.cpp: kProbeCalls).
constexpr int kProbeCalls = 39;
// Timing's calls beyond warm-up and trials: up to five slowed-reference confirmations and the two calls of
// the validation-drift check (core/engine/measurement.cpp).
constexpr int kTimingExtraCalls = 7;
// A GEMM task's baseline timing (core/engine/gemm_baselines.cpp): seven baselines, three sessions each, at
// most 1 s per method of KernelScope's own, the server method's gaps at 100 requests per second.
constexpr double kGemmSessions = 3.0 * 7;
constexpr double kGemmSecondsPerMethod = 1.0;
constexpr double kGemmServerGapS = 2.0 / 100;
// CUDA-L1's evaluation: warm-up calls of a global trial (core/engine/cuda_l1_eval.cpp: kCudaL1Warmup).
constexpr int kCudaL1Warmup = 3;

double seconds(PhaseDeadlines::Clock::duration d) { return std::chrono::duration<double>(d).count(); }

bool onCpu(const protocol::Request& r) { return r.options.device == "cpu"; }

}  // namespace

PhaseDeadlines::PhaseDeadlines(const protocol::Request& request, const PhaseLimits& limits,
                               double maxPhaseSeconds)
    : request_(request), limits_(limits), maxPhaseSeconds_(maxPhaseSeconds) {}

double PhaseDeadlines::spent(Phase phase) const {
  const auto it = spent_.find(phase);
  return it == spent_.end() ? 0.0 : it->second;
}

double PhaseDeadlines::perEntryCap(Phase phase) const {
  if (phase != Phase::Build) return std::numeric_limits<double>::infinity();
  const bool native = (request_.task && request_.task->language != CodeLanguage::Python) ||
                      (request_.candidate && request_.candidate->language != CodeLanguage::Python);
  return (native ? limits_.nativeBuild : limits_.build) +
         (request_.options.gpuShare.empty() ? 0.0 : limits_.gpuShareWait);
}

double PhaseDeadlines::limit(Phase phase) const {
  const protocol::Options& o = request_.options;
  const double share = o.gpuShare.empty() ? 0.0 : limits_.gpuShareWait;
  const double d = spent(Phase::Correctness);  // the correctness time seen: bounds every pair of calls timed there
  auto scaled = [&](double calls, double pairSeconds) {
    return limits_.timedFloor + limits_.headroom * calls * pairSeconds + share;
  };
  switch (phase) {
    case Phase::Load:
      return limits_.load + share;
    case Phase::Build:
      return std::max(1, limits_.buildsPerRequest) * perEntryCap(Phase::Build);
    case Phase::Correctness:
      return (request_.op == protocol::Op::Build ? limits_.firstCall : limits_.correctness) + share;
    case Phase::Probes:
      return scaled(kProbeCalls, d);
    case Phase::Timing: {
      const int trials = o.trials.value_or(onCpu(request_) ? 10 : 50);
      const int warmup = o.warmup.value_or(onCpu(request_) ? 2 : 5);
      double limit = scaled(warmup + trials + kTimingExtraCalls, d);
      if (request_.task && request_.task->gemm) {  // the baselines' timing enters `timing` a second time
        const double session = o.gemmWarmupSeconds.value_or(0.5) + o.gemmSeconds.value_or(1.0) + kGemmServerGapS;
        limit += 2 * limits_.timedFloor + 2 * limits_.headroom * kGemmSecondsPerMethod +
                 limits_.headroom * kGemmSessions * session + share;
      }
      return limit;
    }
    case Phase::Profile:
      return scaled(2, d);
    case Phase::SeedMethod: {
      const protocol::Options::CudaL1EvalOptions l1 = o.cudaL1Eval.value_or(protocol::Options::CudaL1EvalOptions{});
      const double pair = std::max(d, spent(Phase::Timing));
      const double check = std::max(limits_.correctness + share, scaled(2 * l1.correctTrials + 3, pair));
      const auto entries = entries_.find(Phase::SeedMethod);
      if (entries == entries_.end() || entries->second < 2) return check;
      // The second entry is CUDA-L1's timing; the first one's time is its check's.
      const double checkSeconds = firstSeedMethodSeconds_.value_or(spent(Phase::SeedMethod));
      const double perCall = kCudaL1Warmup + l1.perfTrials + 1;
      const double global = std::max(pair * perCall, checkSeconds * perCall / std::max(1, l1.correctTrials));
      const int runs = l1.flushedTwin && !onCpu(request_) ? 2 : 1;
      return check + scaled(runs * l1.globalTrials, global);
    }
  }
  return limits_.load + share;
}

void PhaseDeadlines::enter(Phase phase, double announcedS, Clock::time_point at) {
  if (current_) {
    const double ran = seconds(at - current_->since);
    spent_[current_->phase] += ran;
    if (current_->phase == Phase::SeedMethod && !firstSeedMethodSeconds_) firstSeedMethodSeconds_ = ran;
  }
  ++entries_[phase];
  double allowed = std::min(limit(phase) - spent(phase), perEntryCap(phase));
  if (announcedS > 0) allowed = std::min(allowed, announcedS);  // the runner may only ask for less
  if (maxPhaseSeconds_ > 0) allowed = std::min(allowed, maxPhaseSeconds_);
  current_ = Entry{phase, at, std::max(0.0, allowed)};
}

std::optional<double> PhaseDeadlines::secondsLeft(Clock::time_point at) const {
  if (!current_) return std::nullopt;
  return current_->allowedS - seconds(at - current_->since);
}

double PhaseDeadlines::secondsInPhase(Clock::time_point at) const {
  if (!current_) return 0;
  return spent(current_->phase) + seconds(at - current_->since);
}

}  // namespace ks::supervisor
