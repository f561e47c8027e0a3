// The GEMM baselines and timing methods (gemm_baselines.h) without a GPU: every method runs, each function
// is called once per measured round in the method's order, the server method sleeps its gaps, CUDA-L2's
// methods draw fresh inputs each round and KernelScope's keep one set, and a CPU build says the cuBLAS
// baselines need a CUDA build. The cuBLAS baselines themselves: tests/engine/gpu_gemm_baselines_test.cpp.
#include "core/engine/gemm_baselines.h"

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <chrono>
#include <set>

#include "core/engine/gemm_task.h"
#include "core/engine/trial_clock.h"
#include "core/protocol/gemm_baselines.h"
#include "tests/engine/python_environment.h"

namespace ks::engine {
namespace {

int cpuCandidate(const at::Tensor* in, int count, at::Tensor* out, char* error, std::size_t size) {
  if (count != 3) {
    std::snprintf(error, size, "takes 3 tensors");
    return 1;
  }
  // b_col_major holds bᵀ's bytes, shaped N×K (KernelScope's loop) or K×N (CUDA-L2's, as its harness makes it).
  const at::Tensor bT = in[2].reshape({in[1].size(1), in[1].size(0)});
  *out = at::matmul(in[0].to(at::kFloat), bT.to(at::kFloat).t()).to(at::kHalf);
  return 0;
}

GemmRoundInputs inputsOf(std::int64_t seed) {
  const protocol::GemmRun run = gemmRun(protocol::GemmSpec{32, 16, 64, {}});
  ModelArgs args = gemmInputs(run, c10::Device(c10::kCPU), seed);
  GemmRoundInputs in;
  in.a = args[0].tensor;
  in.b = args[1].tensor;
  in.bColMajor = args[2].tensor;
  in.c = at::empty({32, 16}, in.a.options());
  in.candidate = {in.a, in.b, in.bColMajor};
  return in;
}

TEST(GemmBaselines, EveryMethodCallsEachFunctionOncePerRoundInItsOrderOnItsInputs) {
  testing::testEngine();
  GemmBaselineSettings s;
  s.seed = 7;
  s.warmupRounds = 2;
  s.minRounds = 6;
  s.maxRounds = 6;
  s.secondsPerMethod = 0;
  s.serverQps = 200;  // 5 ms mean gap
  for (stats::GemmMethod method : stats::kGemmMethods) {
    std::vector<int> calledBy;
    std::set<std::int64_t> seeds;
    std::vector<GemmCall> calls;
    for (int f = 0; f < 3; ++f)
      calls.push_back({f == 0 ? "candidate" : "baseline" + std::to_string(f), [f, &calledBy](GemmRoundInputs& in) {
                         calledBy.push_back(f);
                         in.c.copy_(at::matmul(in.a.to(at::kFloat), in.b.to(at::kFloat)));
                       }});
    const auto since = std::chrono::steady_clock::now();
    const MethodTimes t = runGemmMethod(
        method, calls,
        [&seeds](std::int64_t seed) {
          seeds.insert(seed);
          return inputsOf(seed);
        },
        c10::Device(c10::kCPU), s);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
    SCOPED_TRACE(stats::gemmMethodName(method));
    EXPECT_EQ(t.rounds, 6);
    ASSERT_EQ(calledBy.size(), 3u * 8);  // 2 warm-up + 6 measured rounds
    for (std::size_t f = 0; f < 3; ++f) {
      EXPECT_EQ(t.ms[f].size(), 6u);
      EXPECT_EQ(t.hostMs[f].size(), 6u);
      for (double ms : t.ms[f]) EXPECT_GT(ms, 0);
    }
    // The order of each round is the bookkeeping's, replayable from the seed.
    std::vector<int> expected;
    const std::uint64_t seed = s.seed * 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(method) + 1;
    for (std::uint64_t round = 0; round < 8; ++round)
      for (std::size_t i : stats::roundOrder(3, seed, round)) expected.push_back(static_cast<int>(i));
    EXPECT_EQ(calledBy, expected);
    // Fresh inputs per round (seed + 1 + round) for CUDA-L2's methods, the task's seed for KernelScope's.
    if (stats::freshInputsEachRound(method))
      EXPECT_EQ(seeds, (std::set<std::int64_t>{8, 9, 10, 11, 12, 13, 14, 15}));
    else
      EXPECT_EQ(seeds, std::set<std::int64_t>{7});
    // 8 gaps of mean 5 ms: the server method sleeps (its gaps are seeded: > 5 ms in all, not a timing bound
    // on the machine, which may only make it slower).
    if (method == stats::GemmMethod::CudaL2Server) {
      stats::ArrivalGaps gaps(200, seed);
      double slept = 0;
      for (int i = 0; i < 8; ++i) slept += gaps.nextSeconds();
      EXPECT_GE(seconds, slept);
    }
    const auto rows = summarizeGemmMethod(method, calls, t);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].baseline, "baseline1");
    EXPECT_EQ(rows[0].method, stats::gemmMethodName(method));
    EXPECT_EQ(rows[0].rounds, 6);
    EXPECT_DOUBLE_EQ(rows[0].speedup, stats::methodSpeedup(method, t.ms[0], t.ms[1]));
    EXPECT_GT(rows[0].candidateMs, 0);
  }
}

TEST(GemmBaselines, ACpuRunTimesTorchMatmulByEveryMethodAndSaysWhatItCannotTime) {
  testing::testEngine();
  GemmBaselineSettings s;
  s.warmupRounds = 1;
  s.minRounds = 3;
  s.maxRounds = 3;
  s.secondsPerMethod = 0;
  s.sessionWarmupSeconds = 0;
  s.sessionSeconds = 60;  // CUDA-L2's sessions stop on time; here on sessionMaxRounds first
  s.sessionMaxRounds = 3;
  s.serverQps = 1000;
  testing::RecordingSink sink;
  PhaseReporter reporter(sink);
  const protocol::GemmRun run = gemmRun(protocol::GemmSpec{40, 24, 64, {32, 32, 32}});  // padded
  const protocol::GemmBaselines b = timeGemmBaselines(&cpuCandidate, run, c10::Device(c10::kCPU), s, reporter);
  std::string notes;
  for (const std::string& note : b.notes) notes += note + "\n";
  ASSERT_EQ(b.timings.size(), 4u) << notes;
  std::set<std::string> methods;
  for (const auto& t : b.timings) {
    EXPECT_EQ(t.baseline, "torch.matmul");
    EXPECT_EQ(t.rounds, 3);
    EXPECT_GT(t.speedup, 0);
    // CUDA-L2's methods read the host clock, as its harness does; KernelScope's CUDA events (on CPU the wall
    // clock stands in for them); no events twin without a GPU.
    const bool cudaL2 = t.method.rfind("cuda-l2-", 0) == 0;
    EXPECT_EQ(t.clock, cudaL2 ? "host" : "cuda-events") << t.method;
    EXPECT_EQ(t.eventSpeedup, 0) << t.method;
    if (cudaL2) {
      EXPECT_DOUBLE_EQ(t.hostCandidateMs, t.candidateMs);
      EXPECT_GT(t.spread, 0) << t.method;
    }
    methods.insert(t.method);
  }
  EXPECT_EQ(methods, (std::set<std::string>{"cuda-l2-offline", "cuda-l2-server", "kscope-l2-flushed",
                                            "kscope-l2-warm"}));
  ASSERT_FALSE(b.notes.empty());
  EXPECT_EQ(b.notes[0], builtWithCuda() ? "cuBLAS baselines need a CUDA device" : "cuBLAS baselines need a CUDA build");
  EXPECT_EQ(b.serverQps, 1000);
}

TEST(GemmBaselines, AFailingCandidateLeavesANoteNotACrash) {
  testing::testEngine();
  GemmBaselineSettings s;
  s.warmupRounds = 0;
  s.minRounds = 1;
  s.maxRounds = 1;
  s.sessionWarmupSeconds = 0;
  s.sessionMaxRounds = 1;
  testing::RecordingSink sink;
  PhaseReporter reporter(sink);
  const protocol::GemmRun run = gemmRun(protocol::GemmSpec{16, 16, 16, {}});
  const auto failing = [](const at::Tensor*, int, at::Tensor*, char* error, std::size_t size) {
    std::snprintf(error, size, "CUTLASS GEMM execution failed");
    return 2;
  };
  const protocol::GemmBaselines b = timeGemmBaselines(+failing, run, c10::Device(c10::kCPU), s, reporter);
  EXPECT_TRUE(b.timings.empty());
  bool said = false;
  for (const auto& note : b.notes) said = said || note.find("CUTLASS GEMM execution failed") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace ks::engine
