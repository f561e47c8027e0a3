#include "core/runs/cuda_l1_gap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/runs/method_gap.h"
#include "core/runs/number_text.h"
#include "core/stats/speedup_stats.h"

namespace ks::runs {
namespace {

std::string general(double v) {  // tolerances and errors: "0.01", "3.2e-05"
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// KernelScope's own interval, relative half-width; 0 when not known.
double ownSpread(const protocol::Timing& t) {
  if (!t.speedupCi95 || !(t.speedup > 0)) return 0;
  return (t.speedupCi95->high - t.speedupCi95->low) / 2 / t.speedup;
}

const protocol::SeedCheck* firstFailed(const protocol::Correctness& c) {
  for (const protocol::SeedCheck& s : c.seeds)
    if (!s.passed) return &s;
  return nullptr;
}

bool referenceMutates(const protocol::Correctness& c) {
  return std::any_of(c.mutations.begin(), c.mutations.end(),
                     [](const protocol::InputMutation& m) { return m.model == "reference"; });
}

}  // namespace

std::string cudaL1Summary(const protocol::CudaL1Eval& e) {
  const protocol::CudaL1Check& c = e.check;
  std::string s = "CUDA-L1's method (eval_pipeline): ";
  if (c.trials == 0 && !c.ok) return s + (e.note.empty() ? "not run" : e.note);
  const std::string tol = "atol = " + general(c.atol) + ", rtol = " + general(c.rtol);
  if (c.ok)
    s += "check passed " + std::to_string(c.passed) + " of " + std::to_string(c.trials) + " trials (" + tol + ")";
  else
    s += "check FAILED" + (c.failedTrial ? " at trial " + std::to_string(c.failedTrial) + " of " + std::to_string(c.trials) : "") +
         ": " + c.message + " (" + tol + ")";
  if (e.speedup > 0) {
    s += "; " + timesText(e.speedup) + " (mean of " + std::to_string(e.scores.size()) + " trial scores";
    if (e.spread > 0) s += ", ±" + percentText(e.spread);
    s += ")";
    if (e.stoppedEarly) s += ", stopped early by a score below 0.3 as its harness does";
    if (e.flushedSpeedup > 0) s += "; with the L2 flushed before each call " + timesText(e.flushedSpeedup);
  } else if (c.ok && !e.note.empty()) {
    s += "; " + e.note;
  }
  return s;
}

std::optional<CudaL1Gap> cudaL1Gap(const protocol::EvaluateResult& r) {
  if (!r.cudaL1 || !r.timing || !(r.cudaL1->speedup > 0) || !(r.timing->speedup > 0)) return std::nullopt;
  const protocol::CudaL1Eval& e = *r.cudaL1;
  const protocol::Timing& t = *r.timing;
  CudaL1Gap g;
  g.seed = e.speedup;
  g.own = t.speedup;
  g.noise = std::max({e.spread, ownSpread(t), kMethodTolerance});
  if (std::fabs(std::log(g.seed / g.own)) <= std::log1p(g.noise)) return std::nullopt;
  if (e.flushedSpeedup > 0) g.flushed = e.flushedSpeedup;
  const double refMean = meanOf(t.reference.trialsMs), candMean = meanOf(t.candidate.trialsMs);
  if (refMean > 0 && candMean > 0) g.meanRatio = refMean / candMean;

  std::string s = "CUDA-L1's method gives " + timesText(g.seed);
  if (e.spread > 0) s += " (±" + percentText(e.spread) + ")";
  s += ", KernelScope's " + timesText(g.own) + " (L2 flushed, medians).";
  double from = g.seed;
  if (g.flushed) {
    s += " With the L2 flushed before each call CUDA-L1's protocol gives " + timesText(*g.flushed) + " (the flush: " +
         signedPercentText(*g.flushed / from) + ").";
    from = *g.flushed;
  }
  if (g.meanRatio) {
    s += " KernelScope's own trials as a ratio of means give " + timesText(*g.meanRatio) +
         " (the protocol — a fresh clone of the inputs per call, one set of models, Python's collector paused, " +
         std::to_string(t.warmup) + " warm-up calls: " + signedPercentText(*g.meanRatio / from) +
         "), and as the ratio of medians KernelScope reports, " + timesText(g.own) + " (the statistic: " +
         signedPercentText(g.own / *g.meanRatio) + ").";
  }
  s += " Beside CUDA-L1's paper quote CUDA-L1's; for the kernel's own speed KernelScope's.";
  g.text = s;
  return g;
}

std::string cudaL1VerdictGap(const protocol::EvaluateResult& r) {
  if (!r.cudaL1 || r.cudaL1->check.trials == 0) return {};
  const protocol::CudaL1Check& c = r.cudaL1->check;
  const protocol::Correctness& own = r.correctness;
  if (c.ok == own.passed) return {};
  const std::string theirs = "CUDA-L1's check (torch.allclose, atol = " + general(c.atol) + ", rtol = " +
                             general(c.rtol) + ", on " + std::to_string(c.trials) + " inputs of its own seeds)";
  std::string s;
  if (own.passed) {
    s = "KernelScope's check passed " + std::to_string(own.seeds.size()) + (own.seeds.size() == 1 ? " seed; " : " seeds; ") +
        theirs + " failed" +
        (c.failedTrial ? " at trial " + std::to_string(c.failedTrial) + " (seed " + std::to_string(c.failedSeed) + ")" : "") +
        ": " + c.message;
    if (c.maxDiff > 0)
      s += ", largest difference " + general(c.maxDiff) + ", " + general(c.worstShare) + "× its bound";
    s += ".";
    if (referenceMutates(own))
      s += " The reference changes an input in place, and CUDA-L1's check gives the candidate the tensors the "
           "reference changed (KernelScope gives each model its own copy).";
  } else {
    s = "KernelScope's check failed";
    if (const protocol::SeedCheck* f = firstFailed(own)) {
      s += " on seed " + std::to_string(f->seed);
      if (f->maxAbsErr > 0 || f->atol > 0)
        s += ": max abs error " + general(f->maxAbsErr) + " against atol " + general(f->atol) + ", rtol " +
             general(f->rtol);
      else if (!f->message.empty())
        s += ": " + f->message;
    }
    s += "; " + theirs + " passed all of them, its largest difference " + general(c.maxDiff) + " at " +
         percentText(c.worstShare) + " of its bound.";
    if (own.inputsMutated)
      s += " KernelScope also checks that the candidate leaves its inputs as it got them; CUDA-L1 does not.";
  }
  return s;
}

std::vector<std::string> cudaL1Lines(const protocol::EvaluateResult& r) {
  std::vector<std::string> lines;
  if (!r.cudaL1) return lines;
  lines.push_back(cudaL1Summary(*r.cudaL1));
  if (std::string v = cudaL1VerdictGap(r); !v.empty()) lines.push_back(std::move(v));
  if (auto g = cudaL1Gap(r)) lines.push_back(g->text);
  return lines;
}

}  // namespace ks::runs
