#include "core/protocol/result_acceptance.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <vector>

#include "core/protocol/json_codec.h"

namespace ks::protocol {
namespace {

std::string num(double v, const char* format = "%.3f") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

double sum(const std::vector<double>& values) { return std::accumulate(values.begin(), values.end(), 0.0); }

bool finiteNonNegative(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v) && v >= 0; });
}

// probes.timing.bandwidth_floor.input_bytes: what one call's inputs weigh (every call clones them).
std::optional<double> inputBytes(const Json& probes) {
  if (!probes.is_object() || !probes.contains("timing") || !probes["timing"].is_object()) return std::nullopt;
  const Json& timing = probes["timing"];
  if (!timing.contains("bandwidth_floor") || !timing["bandwidth_floor"].is_object()) return std::nullopt;
  const Json& floor = timing["bandwidth_floor"];
  if (!floor.contains("input_bytes") || !floor["input_bytes"].is_number()) return std::nullopt;
  const double bytes = floor["input_bytes"].get<double>();
  return std::isfinite(bytes) && bytes >= 0 ? std::optional(bytes) : std::nullopt;
}

std::optional<std::string> rejectTiming(const Timing& t, const Json& probes, const ObservedRequest& seen) {
  if (t.trials < 1) return "timing.trials is " + std::to_string(t.trials);
  for (const auto& [name, stats] : {std::pair{"reference", &t.reference}, {"candidate", &t.candidate}}) {
    if (stats->trialsMs.size() != static_cast<std::size_t>(t.trials))
      return std::string("timing.") + name + ".trials_ms has " + std::to_string(stats->trialsMs.size()) +
             " values for " + std::to_string(t.trials) + " trials";
    if (!finiteNonNegative(stats->trialsMs))
      return std::string("timing.") + name + ".trials_ms holds a negative or non-finite time";
  }
  const std::optional<double> bytes = inputBytes(probes);
  if (!bytes) return "the result has timing but no probes.timing.bandwidth_floor.input_bytes";

  const double claimedS = (sum(t.reference.trialsMs) + sum(t.candidate.trialsMs)) / 1000;
  if (!seen.timingSeen)
    return "the result claims " + std::to_string(t.trials) + " timed trials (" + num(claimedS) +
           " s of calls) but no timing phase was seen";
  if (claimedS > seen.timingS * (1 + kArrivalSlackShare) + kArrivalSlackS)
    return "the result claims " + num(claimedS) + " s of timed calls, but the timing phase lasted " +
           num(seen.timingS) + " s by this clock";

  const int iterations = t.trials + t.warmup;
  for (const auto& p : seen.timingProgress)
    if (p.total != iterations || p.done < 0 || p.done > p.total)
      return "a timing progress event said " + std::to_string(p.done) + "/" + std::to_string(p.total) +
             ", but the result claims " + std::to_string(t.warmup) + " warm-up calls and " +
             std::to_string(t.trials) + " trials";
  if (seen.timingProgress.size() < 2) return std::nullopt;
  const auto& first = seen.timingProgress.front();
  const auto& last = seen.timingProgress.back();
  const int between = last.done - first.done;
  if (between < 1) return std::nullopt;
  const double perIterationS = (sum(t.reference.trialsMs) + sum(t.candidate.trialsMs)) / t.trials / 1000 +
                               (std::max(0.0, t.reference.clockGapMs) + std::max(0.0, t.candidate.clockGapMs)) /
                                   1000;
  const double allowedS =
      kFixedAllowanceS +
      between * (2 * (kCallOverheadS + *bytes * kCloneSecondsPerByte) + kCallTimeFactor * perIterationS);
  const double tookS = last.atS - first.atS;
  if (tookS > allowedS)
    return "between timing progress " + std::to_string(first.done) + "/" + std::to_string(first.total) +
           " and " + std::to_string(last.done) + "/" + std::to_string(last.total) + " " + num(tookS) +
           " s passed by this clock, but the result's trials claim " + num(perIterationS * 1000, "%.4g") +
           " ms per iteration of both models (at most " + num(allowedS) + " s for " + std::to_string(between) +
           " iterations with every allowance)";
  return std::nullopt;
}

std::optional<std::string> rejectEvaluation(const ResultEvent& event, const ObservedRequest& seen) {
  const Decoded<EvaluateResult> decoded = decodeEvaluateResult(event.result);
  if (!decoded.value) return "the result does not read as an evaluation: " + decoded.error;
  const EvaluateResult& r = *decoded.value;
  const Correctness& c = r.correctness;
  if (event.ok != c.passed)
    return std::string("the result says ok ") + (event.ok ? "true" : "false") + " but correctness.passed " +
           (c.passed ? "true" : "false");
  if (c.seeds.empty()) return "the result checked no seed";
  const bool allPassed = std::all_of(c.seeds.begin(), c.seeds.end(), [](const SeedCheck& s) { return s.passed; });
  if (allPassed != c.passed)
    return std::string("correctness.passed is ") + (c.passed ? "true" : "false") + " but " +
           (allPassed ? "every seed passed" : "a seed failed");
  if (c.passed && !r.timing) return "a correct candidate without timing";
  if (!c.passed && r.timing) return "an incorrect candidate with timing";
  if (r.timing) return rejectTiming(*r.timing, r.probes, seen);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> rejectResult(Op op, const ResultEvent& result, const ObservedRequest& observed) {
  if (op != Op::Evaluate && !result.ok)
    return std::string("a ") + opName(op) + " result with ok false";
  switch (op) {
    case Op::Evaluate:
      return rejectEvaluation(result, observed);
    case Op::Hello: {
      const Decoded<Environment> env = decodeHelloPayload(result.result);
      if (!env.value) return "the result does not read as hello's: " + env.error;
      return std::nullopt;
    }
    case Op::Build: {
      const Decoded<BuildResult> built = decodeBuildResult(result.result);
      if (!built.value) return "the result does not read as a build: " + built.error;
      return std::nullopt;
    }
    case Op::WarmUp: {
      const Decoded<WarmUpResult> warm = decodeWarmUpResult(result.result);
      if (!warm.value) return "the result does not read as a warm-up: " + warm.error;
      if (warm.value->seconds > observed.totalS * (1 + kArrivalSlackShare) + kArrivalSlackS)
        return "the warm-up claims " + num(warm.value->seconds) + " s, but the request took " +
               num(observed.totalS) + " s by this clock";
      return std::nullopt;
    }
    case Op::Shutdown:
      return std::nullopt;
  }
  return std::nullopt;
}

ErrorEvent tamperingError(const std::string& requestId, const std::string& evidence, const std::string& phase) {
  ErrorEvent e;
  e.id = requestId;
  e.error.kind = ErrorKind::Tampering;
  e.error.message = "kscope-runner's answer was not accepted: " + evidence;
  e.error.phase = phase;
  e.error.runnerExits = true;
  return e;
}

}  // namespace ks::protocol
