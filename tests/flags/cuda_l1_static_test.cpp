// checkStatic on every program of the CUDA-L1 release: invariants every flag must satisfy, known cases,
// the count per family (printed, documented in docs/static-flags.md) and the time taken (printed).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <string>

#include "core/flags/flag_families.h"
#include "core/flags/static_rules.h"
#include "core/pysource/embedded_sources.h"
#include "tests/flags/flag_test_support.h"
#include "tests/pysource/cuda_l1_programs.h"

namespace ks {
namespace {

int lineCount(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')) + 1; }

using testing::hasFlag;

TEST(StaticRulesOnCudaL1, EveryProgramChecksFastWithWellFormedFlags) {
  const auto programs = testdata::loadCudaL1();
  if (programs.empty()) GTEST_SKIP() << "CUDA-L1 release not found at " << testdata::cudaL1Path();
  std::map<std::string, int> perFamily, programsPerFamily;
  std::map<int, std::vector<Flag>> byLine;  // JSONL line -> flags
  double seconds = 0;
  int checked = 0;
  for (const auto& p : programs) {
    if (!p.candidate) continue;
    const auto start = std::chrono::steady_clock::now();
    std::vector<Flag> flags = checkStatic(p.reference, *p.candidate);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++checked;
    std::map<std::string, bool> seen;
    for (const Flag& f : flags) {
      const FlagFamily* family = findFlagFamily(f.family);
      ASSERT_NE(family, nullptr) << f.family;
      EXPECT_FALSE(f.message.empty());
      EXPECT_GT(f.confidence, 0.0);
      EXPECT_LE(f.confidence, 1.0);
      EXPECT_EQ(f.origin, "static");
      EXPECT_FALSE(f.lines.empty()) << "line " << p.line << " " << f.family;
      for (const int l : f.lines) {
        EXPECT_GE(l, 1);
        EXPECT_LE(l, lineCount(*p.candidate)) << "line " << p.line << " " << f.family;
      }
      EXPECT_TRUE(std::is_sorted(f.lines.begin(), f.lines.end()));
      ++perFamily[f.family + " (" + severityName(f.severity) + ")"];
      if (!seen[f.family]) ++programsPerFamily[f.family];
      seen[f.family] = true;
    }
    // A program with a __global__ kernel is never "no custom kernel".
    bool kernel = false;
    for (const auto& s : extractEmbeddedSources(*p.candidate))
      kernel = kernel || s.text.find("__global__") != std::string::npos;
    if (kernel) {
      EXPECT_FALSE(hasFlag(flags, "no-custom-kernel", FlagSeverity::Benign)) << "line " << p.line;
    }
    byLine[p.line] = std::move(flags);
  }
  std::cout << "CUDA-L1: checkStatic on " << checked << " candidates took " << seconds << " s in total\n";
  for (const auto& [family, n] : perFamily) std::cout << "  " << family << ": " << n << " flags\n";
  for (const auto& [family, n] : programsPerFamily) std::cout << "  " << family << ": " << n << " programs\n";
  EXPECT_EQ(checked, 227);

  // Known cases, by JSONL line (see docs/static-flags.md).
  EXPECT_TRUE(
      hasFlag(byLine[180], "cached-output", FlagSeverity::Hack));  // L2/80: __call__ returns a stored tensor
  EXPECT_TRUE(
      hasFlag(byLine[149], "changed-inputs", FlagSeverity::Hack));  // L3: bf16/fp16 inputs in get_inputs
  // A stream created and only stored (never read but for `is None`) is not flagged (docs/cuda-l1-review.md).
  EXPECT_FALSE(hasFlag(byLine[7], "extra-stream", FlagSeverity::Suspicious));
  EXPECT_TRUE(hasFlag(byLine[64], "cuda-graph", FlagSeverity::Suspicious));  // static output returned
  EXPECT_TRUE(hasFlag(byLine[222], "cuda-graph", FlagSeverity::Benign));     // inputs copied, output cloned
  for (const int line : {105, 240})  // the input copy is captured inside the graph: replays re-read it
    EXPECT_TRUE(hasFlag(byLine[line], "cuda-graph", FlagSeverity::Hack)) << line;
  EXPECT_TRUE(hasFlag(byLine[3], "no-custom-kernel", FlagSeverity::Benign));  // cuBLAS-only extension
  EXPECT_TRUE(hasFlag(byLine[3], "fallback-to-reference", FlagSeverity::Benign));
  EXPECT_TRUE(hasFlag(byLine[9], "lazy-output", FlagSeverity::Hack));  // LazyMatmul(torch.Tensor)
  for (const int line : {19, 20, 21}) {  // torch.relu_(x) and the like on the input, returned
    EXPECT_TRUE(hasFlag(byLine[line], "mutated-inputs", FlagSeverity::Hack)) << line;
    EXPECT_TRUE(hasFlag(byLine[line], "output-aliases-input", FlagSeverity::Hack)) << line;
  }
  // L1/32: torch.clamp_(x) only where the CUDA extension is not used.
  EXPECT_TRUE(hasFlag(byLine[32], "mutated-inputs", FlagSeverity::Suspicious));
  EXPECT_TRUE(
      hasFlag(byLine[94], "mutated-inputs", FlagSeverity::Hack));  // diff = predictions; diff.sub_(...)
  EXPECT_TRUE(hasFlag(byLine[7], "output-aliases-input", FlagSeverity::Suspicious));  // returns self.output
  for (const int line : {166, 180, 183})  // constant outputs of tasks whose reference is constant
    EXPECT_TRUE(hasFlag(byLine[line], "input-independent", FlagSeverity::Benign)) << line;
  // Reviewed in docs/cuda-l1-review.md: no other flag of these families is raised on the release.
  for (const char* family : {"stale-memory", "gc-scan", "nonfinite-output", "timer-patch", "extra-stream"})
    EXPECT_EQ(perFamily[std::string(family) + " (hack)"] + perFamily[std::string(family) + " (suspicious)"],
              0)
        << family;
}

TEST(StaticRulesOnGarbage, NoCrashAndNoFlags) {
  std::string binary(1u << 20, '\0');
  for (std::size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>((i * 2654435761u) >> 13);
  const std::string inputs[] = {"",
                                "None",
                                "class ModelNew(:\n  def forward(self",
                                std::string(1u << 20, '('),
                                "x = '''unterminated\n" + std::string(1000, 'y'),
                                binary,
                                "def forward(self, x):\n    return self.cache[x.data_ptr()]\n"};
  for (const std::string& in : inputs) {
    EXPECT_TRUE(checkStatic(in, in).empty()) << in.substr(0, 40);
  }
}

}  // namespace
}  // namespace ks
