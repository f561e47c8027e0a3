// The GEMM measurements' table per baseline and timing method (measured_format.h): measured beside the
// recorded numbers, and struck through after the trust rule's verdict when it speaks against the run.
#include <gtest/gtest.h>

#include "core/protocol/gemm_baselines.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/logic/measured_format.h"

namespace ks {
namespace {

runs::MeasuredRun withBaselines(runs::MeasuredRun run) {
  protocol::GemmBaselines b;
  b.notes = {"cuBLASLt-auto-tuning-nn: 1 of 16 heuristic algorithms failed and were skipped"};
  b.timings = protocol::withFasterLayouts({{"torch.matmul", "cuda-l2-offline", 40, 1, 1, 1.80, 0, 0, ""},
                                           {"cuBLAS-tn", "cuda-l2-offline", 40, 1, 1, 1.30, 0, 0, ""},
                                           {"cuBLAS-nn", "cuda-l2-offline", 40, 1, 1, 1.40, 0, 0, ""},
                                           {"torch.matmul", "kscope-l2-warm", 50, 1, 1, 1.70, 0, 0, ""}});
  run.result->baselines = b;
  return run;
}

Candidate recorded() {
  Candidate c;
  Measurement m;
  m.baseline = "torch.matmul";
  m.mode = "offline";
  m.speedup = 1.837;
  c.measurements.push_back(m);
  return c;
}

TEST(GemmBaselinesHtml, MeasuredBesideRecordedPerMethod) {
  const Candidate c = recorded();
  const QString html = gemmBaselinesHtml(withBaselines(test::timedRun(1.8)), &c);
  EXPECT_TRUE(html.contains("cuda-l2-offline<br>(40 rounds)")) << html.toStdString();
  EXPECT_TRUE(html.contains("kscope-l2-warm<br>(50 rounds)")) << html.toStdString();
  EXPECT_TRUE(html.contains("<td>1.80× (recorded 1.84×)</td>")) << html.toStdString();
  EXPECT_TRUE(html.contains("cuBLAS-max = cuBLAS-tn")) << html.toStdString();
  EXPECT_TRUE(html.contains("1 of 16 heuristic algorithms failed")) << html.toStdString();
  EXPECT_FALSE(html.contains("<s>"));
  EXPECT_TRUE(gemmBaselinesHtml(test::timedRun(1.8), &c).isEmpty());  // no baselines: nothing
}

TEST(GemmBaselinesHtml, ACaughtHackStrikesEveryNumberAfterTheVerdict) {
  const runs::MeasuredRun hack = withBaselines(
      test::timedRun(9.0, "sha256:recorded", {protocol::RuntimeFlag{.family = "cached-output", .severity = "hack"}}));
  const QString html = gemmBaselinesHtml(hack, nullptr);
  EXPECT_TRUE(html.contains("caught hack")) << html.toStdString();
  EXPECT_LT(html.indexOf("caught hack"), html.indexOf("<table"));
  EXPECT_TRUE(html.contains("<td><s>1.80×</s></td>")) << html.toStdString();
}

// Where CUDA-L2's method and KernelScope's differ beyond noise, the pane says by how much and why, from the
// run's own numbers (core/runs/method_gap.h); a run whose numbers are not the kernel's says nothing of it.
runs::MeasuredRun withAGap(runs::MeasuredRun run) {
  run = withBaselines(std::move(run));
  run.result->baselines->timings.push_back({"torch.matmul", "kscope-l2-flushed", 50, 1, 1, 1.20, 0, 0, ""});
  return run;
}

TEST(GemmBaselinesHtml, SaysWhyTheTwoMethodsDifferWhereTheyDo) {
  const QString html = gemmBaselinesHtml(withAGap(test::timedRun(1.8)), nullptr);
  EXPECT_TRUE(html.contains("torch.matmul: CUDA-L2&#39;s method gives 1.80×, KernelScope&#39;s 1.20× (L2 flushed, "
                            "medians).") ||
              html.contains("torch.matmul: CUDA-L2's method gives 1.80×, KernelScope's 1.20× (L2 flushed, medians)."))
      << html.toStdString();
  EXPECT_TRUE(html.contains("(kscope-l2-warm): 1.70×")) << html.toStdString();
  const QString hack = gemmBaselinesHtml(
      withAGap(test::timedRun(9.0, "sha256:recorded", {protocol::RuntimeFlag{.family = "cached-output", .severity = "hack"}})),
      nullptr);
  EXPECT_FALSE(hack.contains("CUDA-L2's method gives")) << hack.toStdString();
  EXPECT_FALSE(hack.contains("CUDA-L2&#39;s method gives")) << hack.toStdString();
}

TEST(GemmBaselinesHtml, TheHeadersFewWordsNameBothNumbersOnlyWhereTheyPart) {
  const runs::MeasuredRun run = withAGap(test::timedRun(1.8));
  EXPECT_EQ(methodGapSummary(run, "torch.matmul").toStdString(),
            "re-measured: CUDA-L2's method 1.800×, KernelScope's 1.200× over torch.matmul");
  EXPECT_TRUE(methodGapSummary(run, "cuBLAS-tn").isEmpty());  // no KernelScope number there: nothing to part
  EXPECT_TRUE(methodGapSummary(test::timedRun(1.8), "torch.matmul").isEmpty());  // no baselines
  const runs::MeasuredRun hack =
      withAGap(test::timedRun(9.0, "sha256:recorded", {protocol::RuntimeFlag{.family = "cached-output", .severity = "hack"}}));
  EXPECT_TRUE(methodGapSummary(hack, "torch.matmul").isEmpty());
}

}  // namespace
}  // namespace ks
