// GEMM baselines in the evaluate result: per-baseline, per-method numbers through JSON, older results without
// them, and the release's "-max" rule checked against every row of the release.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/protocol/gemm_baselines.h"
#include "core/protocol/json_codec.h"
#include "ks_test_paths.h"

namespace ks::protocol {
namespace {

EvaluateResult minimalResult() {
  EvaluateResult r;
  r.codeHash = "sha256:abc";
  r.device = "cuda";
  r.environment.device = "cuda";
  r.environment.deviceName = "NVIDIA H100 80GB HBM3";
  r.environment.torch = "2.11.0";
  r.environment.python = "3.12.3";
  r.gemm = GemmRun{64, 4096, 64, 64, 4096, 64};
  return r;
}

TEST(GemmBaselinesCodec, PerBaselinePerMethodNumbersRoundTrip) {
  EvaluateResult r = minimalResult();
  GemmBaselines b;
  b.orderSeed = 20261125;
  b.serverQps = 100;
  b.autotuneAlgorithms = 12;
  b.notes = {"cuBLASLt-auto-tuning-nn: 3 of 12 algorithms failed and were skipped"};
  b.timings = withFasterLayouts({{"torch.matmul", "cuda-l2-offline", 40, 0.0125, 0.0081, 1.54, 0.031, 0.027, ""},
                                 {"cuBLAS-tn", "cuda-l2-offline", 40, 0.0130, 0.0081, 1.60, 0.032, 0.027, ""},
                                 {"cuBLAS-nn", "cuda-l2-offline", 40, 0.0121, 0.0081, 1.49, 0.030, 0.027, ""},
                                 {"cuBLAS-tn", "kscope-l2-flushed", 50, 0.0150, 0.0100, 1.50, 0.04, 0.03, ""}});
  // CUDA-L2's offline method reads the host clock; its events twin and its spread travel with it.
  b.timings[0].clock = "host";
  b.timings[0].eventBaselineMs = 0.0091;
  b.timings[0].eventCandidateMs = 0.0060;
  b.timings[0].eventSpeedup = 1.51;
  b.timings[0].spread = 0.021;
  b.timings[3].clock = "cuda-events";
  r.baselines = b;
  const Json j = toJson(r);
  ASSERT_TRUE(j.contains("baselines"));
  EXPECT_EQ(j["baselines"]["timings"][0]["clock"], "host");
  EXPECT_EQ(j["baselines"]["timings"][0]["event_speedup"], 1.51);
  EXPECT_EQ(j["baselines"]["timings"][0]["spread"], 0.021);
  EXPECT_FALSE(j["baselines"]["timings"][1].contains("event_speedup"));  // left out when not timed
  EXPECT_FALSE(j["baselines"]["timings"][1].contains("clock"));
  EXPECT_EQ(j["baselines"]["order_seed"], 20261125);
  EXPECT_EQ(j["baselines"]["timings"][0]["baseline"], "torch.matmul");
  EXPECT_EQ(j["baselines"]["timings"][0]["method"], "cuda-l2-offline");
  EXPECT_FALSE(j["baselines"]["timings"][0].contains("faster_of"));
  EXPECT_EQ(j["baselines"]["timings"].back()["baseline"], "cuBLAS-max");
  EXPECT_EQ(j["baselines"]["timings"].back()["faster_of"], "cuBLAS-nn");
  const Decoded<EvaluateResult> d = decodeEvaluateResult(j);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_EQ(*d.value, r);
  const BaselineTiming* max = findTiming(*d.value->baselines, "cuBLAS-max", "cuda-l2-offline");
  ASSERT_NE(max, nullptr);
  EXPECT_DOUBLE_EQ(max->speedup, 1.49);
  EXPECT_EQ(findTiming(*d.value->baselines, "cuBLAS-max", "kscope-l2-flushed"), nullptr);  // no NN there
}

TEST(GemmBaselinesCodec, OlderResultsHaveNoBaselinesAndABadOneSaysWhere) {
  const Json older = toJson(minimalResult());
  EXPECT_FALSE(older.contains("baselines"));
  const Decoded<EvaluateResult> d = decodeEvaluateResult(older);
  ASSERT_TRUE(d.value) << d.error;
  EXPECT_FALSE(d.value->baselines);

  Json bad = older;
  bad["baselines"] = {{"order_seed", 1},
                      {"autotune_algorithms", 0},
                      {"timings", {{{"baseline", "cuBLAS-tn"}, {"method", "cuda-l2-offline"}}}}};
  const Decoded<EvaluateResult> e = decodeEvaluateResult(bad);
  EXPECT_FALSE(e.value);
  EXPECT_NE(e.error.find("baselines.timings[0]"), std::string::npos) << e.error;
}

TEST(GemmBaselinesCodec, NamesAreTheReleasesColumns) {
  const std::filesystem::path csv =
      std::filesystem::path(KS_SHARED_DIR) / "datasets/cuda-l2/eval_results/cuda_l2_h100_F32F16F16F32_speedup_offline.csv";
  if (!std::filesystem::exists(csv)) GTEST_SKIP() << "the CUDA-L2 release is not at " << csv;
  std::ifstream in(csv);
  std::string header;
  std::getline(in, header);
  std::string expected = "mnk";
  for (const std::string& name : gemmBaselineColumns()) expected += "," + name;
  EXPECT_EQ(header, expected);
  EXPECT_EQ(measuredGemmBaselines().size() + 3, gemmBaselineColumns().size());
}

// The "-max" rule against the release itself: for every row of both CSVs, the derived column from the TN and
// NN speedups equals the recorded one (to the CSV's 3 decimals).
TEST(GemmBaselinesCodec, MaxRuleReproducesEveryRowOfTheRelease) {
  const std::filesystem::path dir = std::filesystem::path(KS_SHARED_DIR) / "datasets/cuda-l2/eval_results";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "the CUDA-L2 release is not at " << dir;
  int rows = 0;
  for (const char* mode : {"offline", "server"}) {
    std::ifstream in(dir / (std::string("cuda_l2_h100_F32F16F16F32_speedup_") + mode + ".csv"));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::vector<std::string> cells;
      std::stringstream s(line);
      for (std::string cell; std::getline(s, cell, ',');) cells.push_back(cell);
      ASSERT_EQ(cells.size(), 11u) << line;
      std::vector<BaselineTiming> timings;
      for (std::size_t i = 0; i < gemmBaselineColumns().size(); ++i) {
        const std::string& name = gemmBaselineColumns()[i];
        if (name.ends_with("-max")) continue;
        timings.push_back({name, mode, 1, 0, 0, std::stod(cells[i + 1]), 0, 0, ""});
      }
      GemmBaselines b;
      b.timings = withFasterLayouts(timings);
      for (std::size_t i = 0; i < gemmBaselineColumns().size(); ++i) {
        const std::string& name = gemmBaselineColumns()[i];
        if (!name.ends_with("-max")) continue;
        const BaselineTiming* max = findTiming(b, name, mode);
        ASSERT_NE(max, nullptr) << line;
        EXPECT_NEAR(max->speedup, std::stod(cells[i + 1]), 1.5e-3) << name << " in " << line;
      }
      ++rows;
    }
  }
  EXPECT_EQ(rows, 2000);
}

}  // namespace
}  // namespace ks::protocol
