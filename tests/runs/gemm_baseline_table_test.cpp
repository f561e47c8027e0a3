// The GEMM baselines table (gemm_baseline_table.h): measured per baseline and method beside the release's
// recorded numbers of the same name and mode, and the lines `kscope run` prints.
#include "core/runs/gemm_baseline_table.h"

#include <gtest/gtest.h>

#include "core/protocol/gemm_baselines.h"

namespace ks::runs {
namespace {

// 64_64_64 as the H100 release records it (offline and server CSVs).
Candidate recordedKernel() {
  Candidate c;
  c.id = "h100_F32F16F16F32/64x64x64";
  auto add = [&c](const std::string& baseline, const std::string& mode, double speedup) {
    Measurement m;
    m.baseline = baseline;
    m.mode = mode;
    m.speedup = speedup;
    c.measurements.push_back(m);
  };
  add("torch.matmul", "offline", 1.837);
  add("cuBLAS-tn", "offline", 1.859);
  add("cuBLAS-nn", "offline", 1.887);
  add("cuBLAS-max", "offline", 1.859);
  add("torch.matmul", "server", 2.362);
  add("cuBLAS-tn", "server", 2.618);
  return c;
}

protocol::GemmBaselines measured() {
  protocol::GemmBaselines b;
  b.notes = {"cuBLASLt-auto-tuning-nn: 2 of 16 heuristic algorithms failed and were skipped"};
  b.timings = protocol::withFasterLayouts({
      {"torch.matmul", "cuda-l2-offline", 40, 0.012, 0.007, 1.80, 0, 0, ""},
      {"cuBLAS-tn", "cuda-l2-offline", 40, 0.012, 0.007, 1.20, 0, 0, ""},
      {"cuBLAS-nn", "cuda-l2-offline", 40, 0.012, 0.007, 1.90, 0, 0, ""},
      {"torch.matmul", "cuda-l2-server", 30, 0.012, 0.007, 2.30, 0, 0, ""},
      {"torch.matmul", "kscope-l2-warm", 50, 0.012, 0.007, 1.70, 0, 0, ""},
  });
  return b;
}

TEST(GemmBaselineTable, PairsMeasuredWithRecordedByNameAndMode) {
  const GemmBaselineTable t = gemmBaselineTable(measured(), recordedKernel());
  EXPECT_EQ(t.methods, (std::vector<std::string>{"cuda-l2-offline", "cuda-l2-server", "kscope-l2-warm"}));
  EXPECT_EQ(t.rounds, (std::vector<int>{40, 30, 50}));
  ASSERT_EQ(t.rows.size(), 4u);  // torch.matmul, cuBLAS-tn, cuBLAS-nn, cuBLAS-max: the release's order
  EXPECT_EQ(t.rows[0].baseline, "torch.matmul");
  EXPECT_EQ(t.rows[3].baseline, "cuBLAS-max");
  EXPECT_EQ(t.rows[3].fasterOf, "cuBLAS-tn");
  const GemmBaselineCell& offline = t.rows[0].cells[0];
  EXPECT_DOUBLE_EQ(*offline.measured, 1.80);
  EXPECT_DOUBLE_EQ(*offline.recorded, 1.837);
  EXPECT_FALSE(offline.disagrees);
  EXPECT_DOUBLE_EQ(*t.rows[0].cells[1].recorded, 2.362);  // server pairs with server
  EXPECT_FALSE(t.rows[0].cells[2].recorded);               // KernelScope's method: nothing recorded
  EXPECT_TRUE(t.rows[1].cells[0].disagrees);               // 1.20 against 1.859
  EXPECT_FALSE(t.rows[1].cells[1].measured);               // cuBLAS-tn not measured by server
  EXPECT_DOUBLE_EQ(*t.rows[1].cells[1].recorded, 2.618);
  EXPECT_DOUBLE_EQ(*t.rows[3].cells[0].measured, 1.20);    // the faster layout: the smaller speedup
}

TEST(GemmBaselineTable, LinesShowMeasuredRecordedAndNotes) {
  const std::vector<std::string> lines = gemmBaselineLines(gemmBaselineTable(measured(), recordedKernel()));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0].rfind("baseline", 0), 0u);
  EXPECT_NE(lines[0].find("cuda-l2-offline (40)"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind("torch.matmul", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("1.80 (1.84)"), std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find("1.20 (1.86) !"), std::string::npos) << lines[2];  // disagrees with the record
  EXPECT_NE(lines[2].find("- (2.62)"), std::string::npos) << lines[2];       // recorded, not measured
  // Every cell starts where its header does, two spaces after the widest text of the column before.
  const std::vector<std::string> heads = {"cuda-l2-offline (40)", "cuda-l2-server (30)", "kscope-l2-warm (50)"};
  for (const std::string& head : heads) {
    const std::size_t at = lines[0].find(head);
    ASSERT_NE(at, std::string::npos) << head;
    for (std::size_t row = 1; row <= 4; ++row) {
      ASSERT_GT(lines[row].size(), at) << lines[row];
      EXPECT_NE(lines[row][at], ' ') << head << " in: " << lines[row];
      EXPECT_EQ(lines[row].substr(at - 2, 2), "  ") << head << " in: " << lines[row];
    }
  }
  EXPECT_EQ(lines[4].rfind("cuBLAS-max = tn", 0), 0u) << lines[4];
  EXPECT_EQ(lines[5], "cuBLASLt-auto-tuning-nn: 2 of 16 heuristic algorithms failed and were skipped");

  protocol::GemmBaselines cpu;
  cpu.notes = {"cuBLAS baselines need a CUDA build"};
  EXPECT_EQ(gemmBaselineLines(gemmBaselineTable(cpu, recordedKernel())),
            std::vector<std::string>{"cuBLAS baselines need a CUDA build"});
}

TEST(GemmBaselineTable, LongBaselineNamesDoNotRunIntoTheirNumbers) {
  // On the H100, "cuBLASLt-auto-tuning-max = nn" (29 characters) ran into its first number under a fixed
  // 28-character name column ("…max = nn0.77").
  GemmBaselineTable t;
  t.methods = {"cuda-l2-offline", "cuda-l2-server"};
  t.rounds = {200, 75};
  GemmBaselineRow row;
  row.baseline = "cuBLASLt-auto-tuning-max";
  row.fasterOf = "cuBLASLt-auto-tuning-nn";
  GemmBaselineCell a;
  a.measured = 0.77;
  a.recorded = 1.2345;
  a.disagrees = true;
  GemmBaselineCell b;
  b.measured = 0.65;
  row.cells = {a, b};
  t.rows = {row};
  const std::vector<std::string> lines = gemmBaselineLines(t);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[1], "cuBLASLt-auto-tuning-max = nn  0.77 (1.23) !          0.65") << lines[1];
  EXPECT_EQ(lines[0], "baseline                       cuda-l2-offline (200)  cuda-l2-server (75)") << lines[0];
}

}  // namespace
}  // namespace ks::runs
