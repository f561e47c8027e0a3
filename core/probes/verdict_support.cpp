// The helpers the verdicts share (verdicts.h).
#include "core/probes/verdicts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ks::engine::verdicts {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string wholeMs(double v) {
  if (v < 100) return num(v);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

std::string count(std::int64_t part, std::int64_t whole) {
  return std::to_string(part) + " of " + std::to_string(whole);
}

void add(Flags& out, std::string family, const char* severity, double confidence, const char* probe,
         std::string message, Json evidence, std::vector<int> lines) {
  protocol::RuntimeFlag f;
  f.family = std::move(family);
  f.severity = severity;
  f.confidence = confidence;
  f.probe = probe;
  f.message = std::move(message);
  f.lines = std::move(lines);
  f.evidence = std::move(evidence);
  out.push_back(std::move(f));
}

bool has(const Flags& out, std::string_view family) {
  return std::any_of(out.begin(), out.end(), [&](const auto& f) { return f.family == family; });
}

// A torch setting of float32 math precision (unfair-baseline compares the two models' values): the TF32 and
// reduced-precision switches, and torch >= 2.9's per-backend fp32_precision.
bool precisionSetting(const std::string& name) {
  return name.find("allow_tf32") != std::string::npos || name.find("reduced_precision") != std::string::npos ||
         name.find("float32_matmul_precision") != std::string::npos ||
         name.find("fp32_precision") != std::string::npos;
}

bool repeatStale(const RepeatEvidence& r) {
  return r.staleAfterRefill || (r.perturbChangesReference && r.staleAfterPerturb);
}

bool repeatIndependent(const RepeatEvidence& r) { return r.independent && r.referencesDiffer; }

bool nondeterministic(const ProbeEvidence& e) {
  const NondeterminismEvidence& n = e.nondeterminism;
  return n.ran && std::isfinite(e.rounding) && n.maxDifference > kReassociationRatio * e.rounding;
}

// Families whose outputs are unreliable for their own reason: work finished after the call returns, memory
// never written, values that ignore the inputs. The families that read the outputs again (validation-drift
// and input-branching) would only restate them.
bool outputsExplained(const Flags& out) {
  for (const char* family : {"host-thread", "extra-stream", "stale-memory", "nonfinite-output", "lazy-output",
                             "gc-scan", "input-independent", "cached-output"})
    if (has(out, family)) return true;
  return false;
}

}  // namespace ks::engine::verdicts
