// Runtime probes on CPU evaluations made for them: NaN as a mismatch in every comparison, the thread pool the
// candidate leaves behind, precision lowered inside a float64 task, and the moving floor that tells an
// algebraic rewrite from a time no program moving its own data can have.
#include <ATen/Parallel.h>
#include <gtest/gtest.h>
#include <pybind11/pybind11.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/probes/probe_verdicts.h"
#include "ks_test_paths.h"
#include "tests/engine/python_environment.h"
#include "tests/engine/task_programs.h"

using namespace ks;
using namespace ks::engine;
using namespace ks::engine::testing;
using protocol::EvaluateResult;
using protocol::RuntimeFlag;

namespace {

EvaluateResult evaluated(const protocol::Request& request) {
  RecordingSink sink;
  const auto o = testEngine().evaluate(request, sink);
  if (auto* e = failed(o)) {
    ADD_FAILURE() << "error: " << e->message;
    return {};
  }
  return std::get<EvaluateResult>(o);
}

// The flag of `family`, printed (the evidence a user reads is part of what these tests show).
const RuntimeFlag* flagOf(const EvaluateResult& r, const std::string& family) {
  for (const RuntimeFlag& f : r.runtimeFlags)
    if (f.family == family) {
      std::cout << "  " << f.family << " " << f.severity << " (" << f.probe << "): " << f.message << "\n";
      return &f;
    }
  return nullptr;
}

std::string flagsText(const EvaluateResult& r) {
  std::string s;
  for (const RuntimeFlag& f : r.runtimeFlags) s += "\n  " + f.family + " " + f.severity + ": " + f.message;
  return s.empty() ? " none" : s;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The runner's default torch thread count for one test, put back after it.
class DefaultThreads {
 public:
  explicit DefaultThreads(int n) : before_(at::get_num_threads()) { at::set_num_threads(n); }
  ~DefaultThreads() { at::set_num_threads(before_); }

 private:
  int before_;
};

const std::string kMatmul64 = R"(import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)


def get_inputs():
    return [torch.randn(96, 96, dtype=torch.float64), torch.randn(96, 96, dtype=torch.float64)]


def get_init_inputs():
    return []
)";

std::string matmul64With(const std::string& body) {
  std::string code = kMatmul64;
  code.replace(code.find("class Model("), 12, "class ModelNew(");
  const std::string line = "        return torch.matmul(A, B)";
  code.replace(code.find(line), line.size(), "        " + body);
  return code;
}

}  // namespace

// A candidate exact for its checked calls that answers NaN in half its rows afterwards: the probes phase's calls
// show it as nonfinite-output, and no probe that compares those outputs reads the NaN as agreement (no
// nondeterminism, benchmark-detection or precision verdict from a masked difference).
TEST(ProbeEvaluate, NaNAfterTheCheckedCallsIsNonfiniteOutputEverywhere) {
  const std::string code = candidateWith(
      "self.calls = getattr(self, 'calls', 0) + 1\n"
      "        out = torch.relu(self.linear(x))\n"
      "        if self.calls > 2:\n"
      "            out[out.shape[0] // 2:] = float('nan')\n"
      "        return out");
  const EvaluateResult r = evaluated(evaluateRequest("nan-later", code));
  EXPECT_TRUE(r.correctness.passed);  // the two checked calls are exact
  const RuntimeFlag* f = flagOf(r, "nonfinite-output");
  ASSERT_NE(f, nullptr) << flagsText(r);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_TRUE(f->evidence.value("probe_call", false)) << f->evidence.dump();
  for (const char* family : {"nondeterminism", "benchmark-detection", "lowered-precision", "weak-task"})
    EXPECT_EQ(flagOf(r, family), nullptr) << family << flagsText(r);
  const auto& precision = r.probes["float64-reference"];
  EXPECT_NE(precision.value("note", std::string()).find("NaN"), std::string::npos) << precision.dump();
}

// The thread count and the pool variables against the runner's defaults, after the import and after each call.
TEST(ProbeEvaluate, AThreadCountLeftLowerAfterItsCallsIsFlaggedAndTheReferenceRunsWithTheDefault) {
  const DefaultThreads two(2);
  const std::string code = candidateWith(
      "torch.set_num_threads(2)\n"
      "        out = torch.relu(self.linear(x))\n"
      "        torch.set_num_threads(1)\n"
      "        return out");
  const EvaluateResult r = evaluated(evaluateRequest("pool-starved", code));
  const RuntimeFlag* f = flagOf(r, "slowed-reference");
  ASSERT_NE(f, nullptr) << flagsText(r);
  EXPECT_EQ(f->probe, "thread-pool");
  EXPECT_EQ(f->severity, "suspicious");
  EXPECT_NE(f->message.find("at 1 thread(s)"), std::string::npos) << f->message;
  EXPECT_EQ(f->evidence["default_threads"], 2);
  EXPECT_EQ(f->evidence["reference_timed_threads"], 2);  // put back before every timed reference call
  EXPECT_EQ(r.probes["thread-pool"]["reference_timed_threads"], 2);
  EXPECT_EQ(at::get_num_threads(), 2);  // and after the request
}

TEST(ProbeEvaluate, ExportedPoolSizesAreFlaggedAndPutBackInBothEnvironments) {
  ::unsetenv("OMP_NUM_THREADS");
  ::unsetenv("MKL_NUM_THREADS");
  const std::string code = candidateWith("return torch.relu(self.linear(x))",
                                         "import os\nos.environ['OMP_NUM_THREADS'] = '1'\n"
                                         "os.putenv('MKL_NUM_THREADS', '1')\n");
  const EvaluateResult r = evaluated(evaluateRequest("pool-exported", code));
  const RuntimeFlag* f = flagOf(r, "slowed-reference");
  ASSERT_NE(f, nullptr) << flagsText(r);
  EXPECT_EQ(f->probe, "thread-pool");
  EXPECT_NE(f->message.find("OMP_NUM_THREADS=1"), std::string::npos) << f->message;
  EXPECT_NE(f->message.find("MKL_NUM_THREADS (C environment)=1"), std::string::npos) << f->message;
  EXPECT_EQ(std::getenv("OMP_NUM_THREADS"), nullptr);
  EXPECT_EQ(std::getenv("MKL_NUM_THREADS"), nullptr);
  EXPECT_FALSE(pybind11::module_::import("os").attr("environ").attr("__contains__")("OMP_NUM_THREADS").cast<bool>());
}

// Where torch starts with one thread, a count lowered after the candidate's calls cannot show: the probe says so.
TEST(ProbeEvaluate, WithOneThreadByDefaultTheThreadCountIsNotObservableAndSaysSo) {
  const DefaultThreads one(1);
  const std::string code = candidateWith(
      "torch.set_num_threads(2)\n"
      "        out = torch.relu(self.linear(x))\n"
      "        torch.set_num_threads(1)\n"
      "        return out");
  const EvaluateResult r = evaluated(evaluateRequest("pool-one-thread", code));
  EXPECT_EQ(flagOf(r, "slowed-reference"), nullptr) << flagsText(r);
  EXPECT_EQ(r.probes["thread-pool"]["note"], "default is 1 thread; not observable");
  EXPECT_EQ(r.probes["thread-pool"]["count_observable"], false);
}

TEST(ProbeEvaluate, ACountPutBackAfterItsOwnCallIsNoChange) {
  const DefaultThreads two(2);
  const std::string code = candidateWith(
      "previous = torch.get_num_threads()\n"
      "        torch.set_num_threads(1)\n"
      "        try:\n"
      "            return torch.relu(self.linear(x))\n"
      "        finally:\n"
      "            torch.set_num_threads(previous)");
  const EvaluateResult r = evaluated(evaluateRequest("pool-restored", code));
  EXPECT_EQ(flagOf(r, "slowed-reference"), nullptr) << flagsText(r);
  EXPECT_TRUE(r.probes["thread-pool"]["changes"].empty()) << r.probes["thread-pool"].dump();
}

// A float64 task computed in float32 by .float() and cast back: the candidate's error is the reference's own
// float32 run's, which the evidence names.
TEST(ProbeEvaluate, AFloat64TaskInFloat32IsConsistentWithFloat32) {
  auto request = evaluateRequest("f64-float", matmul64With("return torch.matmul(A.float(), B.float()).double()"),
                                 kMatmul64);
  const EvaluateResult r = evaluated(request);
  EXPECT_TRUE(r.correctness.passed);
  const RuntimeFlag* f = flagOf(r, "lowered-precision");
  ASSERT_NE(f, nullptr) << flagsText(r);
  EXPECT_EQ(f->severity, "hack");
  EXPECT_EQ(f->evidence["consistent_with"], "float32") << f->evidence.dump();
  EXPECT_NE(f->message.find("computes in float32 and casts back to float64"), std::string::npos) << f->message;

  request = evaluateRequest("f64-honest", matmul64With("return torch.mm(A.double(), B.to(torch.float64))"), kMatmul64);
  EXPECT_EQ(flagOf(evaluated(request), "lowered-precision"), nullptr);
}

TEST(ProbeEvaluate, Float32ComputedInBfloat16IsConsistentWithBfloat16) {
  const std::string code = candidateWith(
      "w = self.linear.weight.to(torch.bfloat16)\n"
      "        return torch.relu(x.to(torch.bfloat16) @ w.t() + self.linear.bias.to(torch.bfloat16)).float()");
  const EvaluateResult r = evaluated(evaluateRequest("bf16", code));
  const RuntimeFlag* f = flagOf(r, "lowered-precision");
  ASSERT_NE(f, nullptr) << flagsText(r);
  EXPECT_EQ(f->evidence["consistent_with"], "bfloat16") << f->evidence.dump() << f->message;
}

// sample_runs/diag-matmul r2 (A.unsqueeze(1) * B for diag(A) @ B) does O(N^2) work for the reference's O(N^3):
// a speedup beyond any bound, honestly, since it still reads B and writes the output. A candidate that hands the
// timed calls a result kept from an earlier call does not move them, and its time is below that floor.
TEST(ProbeEvaluate, AnAlgebraicRewriteIsAboveTheMovingFloorAndAKeptResultBelowIt) {
  const std::filesystem::path folder = std::filesystem::path(KS_SOURCE_DIR) / "sample_runs" / "diag-matmul";
  const std::string reference = readFile(folder / "reference.py");
  auto request = evaluateRequest("diag-r2", readFile(folder / "r2.py"), reference);
  request.options.trials = 10;
  const EvaluateResult honest = evaluated(request);
  EXPECT_TRUE(honest.correctness.passed);
  EXPECT_EQ(flagOf(honest, "impossible-time"), nullptr) << flagsText(honest);
  const auto& floor = honest.probes["timing"]["moving_floor"];
  EXPECT_TRUE(floor.value("ran", false)) << floor.dump();
  EXPECT_GT(floor.value("share_of_floor", 0.0), kMovingFloorSuspicious) << floor.dump();
  std::cout << "  honest rewrite: speedup " << (honest.timing ? honest.timing->speedup : 0) << "x, moving floor "
            << floor.dump() << "\n";

  std::string kept = readFile(folder / "r2.py");
  const std::string line = "        return A.unsqueeze(1) * B";
  kept.replace(kept.find(line), line.size(),
               "        import gc\n"
               "        if not gc.isenabled() and getattr(self, 'kept', None) is not None:\n"
               "            return self.kept\n"
               "        self.kept = A.unsqueeze(1) * B\n"
               "        return self.kept");
  request = evaluateRequest("diag-kept", kept, reference);
  request.options.trials = 10;
  const EvaluateResult fast = evaluated(request);
  const RuntimeFlag* f = flagOf(fast, "impossible-time");
  ASSERT_NE(f, nullptr) << flagsText(fast) << fast.probes["timing"].dump();
  EXPECT_EQ(f->probe, "moving-floor");
  EXPECT_LT(f->evidence["share_of_floor"].get<double>(), kMovingFloorSuspicious);
}
