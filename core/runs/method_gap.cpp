#include "core/runs/method_gap.h"

#include <algorithm>
#include <cmath>

#include "core/protocol/gemm_baselines.h"
#include "core/runs/number_text.h"

namespace ks::runs {
namespace {

bool beyondNoise(double a, double b, double spread) {
  return a > 0 && b > 0 && std::fabs(std::log(a / b)) > std::log1p(std::max(spread, kMethodTolerance));
}

std::string sentence(const MethodGap& g, const protocol::BaselineTiming& seed) {
  std::string s = g.baseline + ": CUDA-L2's method gives " + timesText(g.seed);
  if (g.spread > 0) s += " (±" + percentText(g.spread) + " within its session)";
  s += ", KernelScope's " + timesText(g.own) + " (L2 flushed, medians).";
  if (g.events && g.kernelOverheadUs && g.baselineOverheadUs) {
    s += " CUDA-L2's host clock reads " + durationText(seed.candidateMs) + " for the kernel and " +
         durationText(seed.baselineMs) + " for " + g.baseline + " per call; CUDA events in the same protocol " +
         durationText(seed.eventCandidateMs) + " and " + durationText(seed.eventBaselineMs) + ", a ratio of " +
         timesText(*g.events) + ": the host clock adds " + durationText(*g.kernelOverheadUs / 1000) + " and " +
         durationText(*g.baselineOverheadUs / 1000) + " to each call (synchronize, launch, Python).";
    // Where what the host clock adds is more than the events' own time of both calls, the method's number is
    // mostly the call path's: its ratio tends to 1 whatever the kernels do (docs/method-fidelity.md, "The
    // cuBLAS gap").
    if (*g.kernelOverheadUs > seed.eventCandidateMs * 1000 && *g.baselineOverheadUs > seed.eventBaselineMs * 1000)
      s += " More than half of each call is the host's: CUDA-L2's ratio here measures the call path more than "
           "the kernels, and moves more between sessions than within one (CUDA-L2's own harness moved by 8-33 % "
           "between sessions seconds apart on such calls on an H200, docs/method-fidelity.md).";
  }
  if (g.warm) s += " One loop on shared inputs with medians (kscope-l2-warm): " + timesText(*g.warm) + ".";
  s += " Beside the paper quote CUDA-L2's; for the kernel's own speed KernelScope's.";
  return s;
}

}  // namespace

std::vector<MethodGap> methodGaps(const protocol::GemmBaselines& baselines) {
  std::vector<MethodGap> out;
  for (const std::string& name : protocol::gemmBaselineColumns()) {
    const protocol::BaselineTiming* seed = protocol::findTiming(baselines, name, "cuda-l2-offline");
    const protocol::BaselineTiming* own = protocol::findTiming(baselines, name, "kscope-l2-flushed");
    if (!seed || !own || !seed->fasterOf.empty()) continue;
    if (!beyondNoise(seed->speedup, own->speedup, seed->spread)) continue;
    MethodGap g;
    g.baseline = name;
    g.seed = seed->speedup;
    g.own = own->speedup;
    g.spread = seed->spread;
    if (seed->eventSpeedup > 0) {
      g.events = seed->eventSpeedup;
      g.kernelOverheadUs = (seed->candidateMs - seed->eventCandidateMs) * 1000;
      g.baselineOverheadUs = (seed->baselineMs - seed->eventBaselineMs) * 1000;
    }
    if (const auto* warm = protocol::findTiming(baselines, name, "kscope-l2-warm"); warm && warm->speedup > 0)
      g.warm = warm->speedup;
    g.text = sentence(g, *seed);
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace ks::runs
