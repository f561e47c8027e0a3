// The shape map's and the roofline's data on the real CUDA-L2 release (skipped with the reason when it is not
// at ../shared), and their rules on small runs built here: cells per K, the colour scale, a caught hack or a
// fallback never coloured as a win, the baseline and mode lists read from the data, roofline arithmetic and
// the GPU ceilings.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <memory>

#include "core/formats/load.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/logic/gemm_task_summary.h"
#include "views/logic/gpu_ceilings.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/roofline.h"
#include "views/logic/shape_map.h"
#include "views/logic/speedup_trust.h"
#include "ks_test_paths.h"
#include "tests/view_logic/cuda_l2_release.h"

namespace ks {
namespace {




// A GEMM task of the given shape with one candidate recording `speedup` against torch.matmul (offline).
Task gemmTask(std::int64_t m, std::int64_t n, std::int64_t k, double speedup) {
  Task t;
  t.id = "h100_F32F16F16F32/" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  t.gemm = GemmShape{m, n, k, "h100", "F32F16F16F32", "fp16", "fp32"};
  Candidate& c = t.candidates.emplace_back();
  c.id = "kernel.cu";
  c.language = CodeLanguage::Cuda;
  c.code = "// kernel";
  Measurement& r = c.measurements.emplace_back();
  r.baseline = "torch.matmul";
  r.mode = "offline";
  r.speedup = speedup;
  return t;
}

TEST(ShapeMapOnTheRelease, OneCellPerShapeAndAsManyPerKAsTheReleaseHasShapesOfThatK) {
  NEED_CUDA_L2_RELEASE();
  const ShapeMap map(*run, nullptr, "torch.matmul", "offline", ShapeMap::Source::Recorded);
  std::map<std::int64_t, int> shapesPerK;
  for (const Task& t : run->run().tasks)
    if (t.gemm) ++shapesPerK[t.gemm->k];
  ASSERT_EQ(shapesPerK.size(), 10u) << "the release has K = 64 .. 16384";
  EXPECT_EQ(map.cells().size(), 1000u);
  EXPECT_EQ(map.ks().size(), shapesPerK.size());
  EXPECT_EQ(map.ms().size(), 10u);
  EXPECT_EQ(map.ns().size(), 10u);
  for (const auto& [k, count] : shapesPerK) EXPECT_EQ(static_cast<int>(map.cellsOfK(k).size()), count) << k;
  EXPECT_EQ(map.emptyCount(), 0) << "every shape records a torch.matmul offline speedup";
  // The 64×64×64 cell holds the CSV's first number (offline, torch.matmul: 1.837).
  const ShapeMap::Cell* first = map.find(64, 64, 64);
  ASSERT_NE(first, nullptr);
  ASSERT_TRUE(first->value);
  EXPECT_DOUBLE_EQ(*first->value, 1.837);
  EXPECT_EQ(map.cellOfRow(first->row), first);
  EXPECT_EQ(run->task(first->row).gemm->k, 64);
}

TEST(ShapeMapOnTheRelease, BaselinesAndModesComeFromTheResultsFiles) {
  NEED_CUDA_L2_RELEASE();
  const std::vector<SpeedupSeries> series = gemmSpeedupSeries(*run);
  EXPECT_EQ(series.size(), 20u) << "10 CSV columns in 2 modes";
  const std::vector<std::string> baselines = baselinesOf(series);
  ASSERT_EQ(baselines.size(), 10u);
  EXPECT_EQ(baselines.front(), "torch.matmul");  // the CSVs' column order
  EXPECT_EQ(baselines.back(), "cuBLASLt-auto-tuning-max");
  EXPECT_EQ(modesOf(series), (std::vector<std::string>{"offline", "server"}));
  EXPECT_TRUE(hasGemmTasks(*run));
  EXPECT_FALSE(hasGemmTasks(*test::syntheticRun()));
  EXPECT_TRUE(gemmSpeedupSeries(*test::syntheticRun()).empty());
  // Another series gives other numbers: server mode against cuBLAS-max.
  const ShapeMap server(*run, nullptr, "cuBLAS-max", "server", ShapeMap::Source::Recorded);
  EXPECT_EQ(server.emptyCount(), 0);
  EXPECT_NE(*server.find(64, 64, 64)->value, 1.837);
}

TEST(ShapeMapOnTheRelease, WithoutReRunsTheMeasuredMapIsEmptyNotNeutral) {
  NEED_CUDA_L2_RELEASE();
  const MeasuredHistory history(run->rowCount());
  const ShapeMap map(*run, &history, "torch.matmul", "offline", ShapeMap::Source::Measured);
  EXPECT_EQ(map.emptyCount(), 1000);
  for (const ShapeMap::Cell& c : map.cells()) EXPECT_FALSE(map.colour(c)) << c.m << "x" << c.n << "x" << c.k;
}

TEST(ShapeMapColours, OneIsNeutralFasterAndSlowerDivergeAndClampBeyondTwoOctaves) {
  EXPECT_EQ(speedupColour(1.0), shape_colours::kNeutral);
  EXPECT_EQ(speedupColour(2.0), shape_colours::kFaster);
  EXPECT_EQ(speedupColour(0.5), shape_colours::kSlower);
  EXPECT_EQ(speedupColour(37.0), shape_colours::kFaster);  // clamped
  EXPECT_EQ(speedupColour(0.01), shape_colours::kSlower);
  EXPECT_DOUBLE_EQ(speedupPosition(std::sqrt(2.0)), 0.5);
  EXPECT_DOUBLE_EQ(speedupPosition(1 / std::sqrt(2.0)), -0.5);
  EXPECT_TRUE(std::isnan(speedupPosition(0)));
  const Rgb faster = speedupColour(1.3), slower = speedupColour(1 / 1.3);
  EXPECT_LT(faster.r, shape_colours::kNeutral.r);  // towards blue
  EXPECT_GT(faster.b, faster.r);
  EXPECT_GT(slower.r, slower.b);  // towards red
  // The missing and untrusted colours are neither the neutral one nor on the scale's ends.
  EXPECT_NE(shape_colours::kUntrusted, shape_colours::kNeutral);
}

TEST(ShapeMapTrust, ACaughtHackIsNeverColouredAsAWin) {
  RunFile file;
  file.format = "cuda-l2";
  file.tasks = {gemmTask(64, 64, 64, 3.0), gemmTask(64, 128, 64, 3.0)};
  std::vector<std::vector<Flag>> flags(2);
  flags[1].push_back(Flag{.family = "cached-output", .severity = FlagSeverity::Hack, .message = "caught"});
  const LoadedRun run(file, flags);
  const ShapeMap map(run, nullptr, "torch.matmul", "offline", ShapeMap::Source::Recorded);
  const ShapeMap::Cell* clean = map.find(64, 64, 64);
  const ShapeMap::Cell* hacked = map.find(64, 128, 64);
  ASSERT_TRUE(clean && hacked);
  EXPECT_EQ(map.colour(*clean), shape_colours::kFaster);
  EXPECT_FALSE(hacked->trusted);
  EXPECT_EQ(map.colour(*hacked), shape_colours::kUntrusted);
  ASSERT_EQ(hacked->distrust.size(), 1u);
  EXPECT_NE(hacked->distrust[0].find("cached-output"), std::string::npos);
  EXPECT_EQ(map.untrustedCount(), 1);
}

TEST(ShapeMapTrust, AFallbackOrARuntimeHackIsNeverColouredAsAWin) {
  RunFile file;
  file.tasks = {gemmTask(64, 64, 64, 3.0), gemmTask(64, 128, 64, 3.0), gemmTask(128, 64, 64, 3.0)};
  const LoadedRun run(file);
  MeasuredHistory history(run.rowCount());
  // Row 0: its kernel failed to build, the program caught it and ran torch: 3× measured is the fallback's.
  runs::MeasuredRun fellBack = test::timedRun(3.0);
  fellBack.result->build.extensions.push_back(protocol::ExtensionBuild{
      .name = "gemm_ext", .program = "candidate", .ok = false, .error = "nvcc: error"});
  history.add(0, {fellBack, true});
  // Row 1: the probes caught a hack at run time.
  history.add(1, {test::timedRun(3.0, "sha256:recorded",
                                 {protocol::RuntimeFlag{.family = "cached-output", .severity = "hack"}}),
                  true});
  // Row 2: an honest 3× re-run.
  history.add(2, {test::timedRun(3.0), true});
  for (const ShapeMap::Source source : {ShapeMap::Source::Recorded, ShapeMap::Source::Measured}) {
    const ShapeMap map(run, &history, "torch.matmul", "offline", source);
    const ShapeMap::Cell* a = map.cellOfRow(0);
    const ShapeMap::Cell* b = map.cellOfRow(1);
    const ShapeMap::Cell* c = map.cellOfRow(2);
    EXPECT_EQ(map.colour(*a), shape_colours::kUntrusted);
    EXPECT_EQ(map.colour(*b), shape_colours::kUntrusted);
    EXPECT_EQ(map.colour(*c), shape_colours::kFaster);
    ASSERT_FALSE(a->distrust.empty());
    EXPECT_NE(a->distrust[0].find("fell back"), std::string::npos) << a->distrust[0];
    EXPECT_NE(b->distrust[0].find("cached-output"), std::string::npos) << b->distrust[0];
  }
  const ShapeMap measured(run, &history, "torch.matmul", "offline", ShapeMap::Source::Measured);
  EXPECT_DOUBLE_EQ(*measured.cellOfRow(2)->measured, 3.0);
}

TEST(ShapeMap, AMeasurementTheFileCarriesIsTheMeasuredNumberUntilAReRunReplacesIt) {
  RunFile file;
  file.tasks = {gemmTask(64, 64, 64, 3.0)};
  Measurement& m = file.tasks[0].candidates[0].measurements.emplace_back();
  m.origin = "measured";
  m.speedup = 1.5;
  const LoadedRun run(file);
  const ShapeMap fromFile(run, nullptr, "torch.matmul", "offline", ShapeMap::Source::Measured);
  EXPECT_DOUBLE_EQ(*fromFile.cellOfRow(0)->value, 1.5);
  MeasuredHistory history(1);
  history.add(0, {test::timedRun(2.5), true});
  const ShapeMap reRun(run, &history, "torch.matmul", "offline", ShapeMap::Source::Measured);
  EXPECT_DOUBLE_EQ(*reRun.cellOfRow(0)->value, 2.5);
  // The recorded map still shows the claim.
  EXPECT_DOUBLE_EQ(
      *ShapeMap(run, &history, "torch.matmul", "offline", ShapeMap::Source::Recorded).cellOfRow(0)->value,
      3.0);
}

TEST(ShapeMapTrust, ABenignStaticFallbackFlagAloneLeavesTheNumberTrusted) {
  RunFile file;
  file.tasks = {gemmTask(64, 64, 64, 3.0)};
  std::vector<std::vector<Flag>> flags(1);
  flags[0].push_back(Flag{.family = "fallback-to-reference", .severity = FlagSeverity::Benign});
  const LoadedRun run(file, flags);
  EXPECT_TRUE(speedupTrust(run, nullptr, 0).trusted);
}

TEST(Roofline, PointMath) {
  const GemmShape cube{4096, 4096, 4096, "h100", "F32F16F16F32", "fp16", "fp32"};
  EXPECT_DOUBLE_EQ(gemmFlops(4096, 4096, 4096), 2.0 * 4096.0 * 4096.0 * 4096.0);
  EXPECT_NEAR(achievedTflops(cube, 1.0), 137.4, 0.05);
  EXPECT_DOUBLE_EQ(gemmBytes(4096, 4096, 4096, 2), 2.0 * 3 * 4096.0 * 4096.0);
  EXPECT_NEAR(arithmeticIntensity(cube), 4096.0 / 3, 1e-9);  // 2·n³ / (2·3n²)
  EXPECT_EQ(achievedTflops(cube, 0), 0);
  GemmShape fp32 = cube;
  fp32.inputType = "fp32";
  EXPECT_NEAR(arithmeticIntensity(fp32), 4096.0 / 6, 1e-9);
}

TEST(Roofline, Ceilings) {
  const GpuCeilings* h100 = gpuCeilings("h100");
  ASSERT_NE(h100, nullptr);
  EXPECT_DOUBLE_EQ(h100->bandwidthTBs, 3.0);
  EXPECT_DOUBLE_EQ(h100->tensorTflops("fp32"), 800.0);
  EXPECT_NEAR(h100->ridge("fp32"), 266.67, 0.01);
  EXPECT_DOUBLE_EQ(h100->attainableTflops(10, "fp32"), 30.0);  // memory-bound: 3 TB/s × 10 FLOP/B
  EXPECT_DOUBLE_EQ(h100->attainableTflops(1000, "fp32"), 800.0);
  EXPECT_EQ(gpuCeilings("NVIDIA H100 80GB HBM3"), h100);
  const GpuCeilings* a100 = gpuCeilings("A100");
  ASSERT_NE(a100, nullptr);
  EXPECT_DOUBLE_EQ(a100->tensorTflops("fp32"), 312.0);
  const GpuCeilings* rtx = gpuCeilings("3090");
  ASSERT_NE(rtx, nullptr);
  EXPECT_DOUBLE_EQ(rtx->bandwidthTBs, 0.936);
  EXPECT_DOUBLE_EQ(rtx->tensorTflops("fp32"), 71.0);
  EXPECT_DOUBLE_EQ(rtx->tensorTflops("fp16"), 142.0);
  EXPECT_EQ(gpuCeilings("v100"), nullptr);
}

TEST(RooflineOnTheRelease, RecordedSpeedupsPlaceNoPoint) {
  NEED_CUDA_L2_RELEASE();
  const Roofline r = buildRoofline(*run, nullptr);
  EXPECT_EQ(r.gemmTasks, 1000);
  EXPECT_EQ(r.recordedOnly, 1000);
  EXPECT_TRUE(r.points.empty());
  EXPECT_EQ(r.gpu, "h100");
  EXPECT_EQ(r.ceilings, gpuCeilings("h100"));
}

TEST(Roofline, AReRunOnAGpuPlacesTheCandidateAndTheReference) {
  RunFile file;
  file.tasks = {gemmTask(4096, 4096, 4096, 1.2)};
  const LoadedRun run(file);
  MeasuredHistory history(1);
  runs::MeasuredRun timed = test::timedRun(2.0);
  timed.row.device = "NVIDIA H100 80GB HBM3";
  timed.result->timing->candidate.medianMs = 1.0;
  timed.result->timing->reference.medianMs = 2.0;
  history.add(0, {timed, true});
  const Roofline r = buildRoofline(run, &history);
  ASSERT_EQ(r.points.size(), 2u);
  EXPECT_EQ(r.points[0].program, RooflinePoint::Program::Candidate);
  EXPECT_NEAR(r.points[0].tflops, 137.4, 0.05);
  EXPECT_NEAR(r.points[1].tflops, 68.7, 0.05);
  EXPECT_EQ(r.timedTasks, 1);
  EXPECT_EQ(r.recordedOnly, 0);
  // A run on the CPU is no point on a GPU's roofline.
  MeasuredHistory cpu(1);
  cpu.add(0, {test::timedRun(2.0), true});
  EXPECT_TRUE(buildRoofline(run, &cpu).points.empty());
}

TEST(GemmTaskSummaryOnTheRelease, WordsCodeAndTheKernelsTiles) {
  NEED_CUDA_L2_RELEASE();
  const int row = run->findRow("h100_F32F16F16F32/4096x4096x4096", "");
  ASSERT_GE(row, 0);
  const GemmTaskSummary s = gemmTaskSummary(run->task(row), run->candidate(row));
  EXPECT_EQ(s.shape, "M 4096 × N 4096 × K 4096 · fp16 in, fp32 accumulate · H100");
  EXPECT_NE(s.words.find("C = A · B"), std::string::npos);
  EXPECT_EQ(s.words.find("```"), std::string::npos);
  EXPECT_NE(s.code.find("torch.matmul(a, b)"), std::string::npos);
  EXPECT_EQ(s.code.find("```"), std::string::npos);
  EXPECT_NE(s.tiles.find("BM "), std::string::npos) << s.tiles;
  EXPECT_NE(s.tiles.find("BK "), std::string::npos) << s.tiles;
  EXPECT_FALSE(s.tileLines.empty());
  EXPECT_TRUE(gemmTaskSummary(test::syntheticRun()->task(0), nullptr).shape.empty());
}

}  // namespace
}  // namespace ks
