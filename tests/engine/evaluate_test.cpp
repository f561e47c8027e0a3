// Evaluations on CPU inside this process: what a result says for correct, wrong, mutating, cheating and
// failing candidates.
#include <gtest/gtest.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cmath>

#include "tests/engine/python_environment.h"
#include "tests/engine/task_programs.h"

using namespace ks;
using namespace ks::engine;
using namespace ks::engine::testing;
using protocol::ErrorInfo;
using protocol::EvaluateResult;
using protocol::Phase;

namespace {

Outcome<EvaluateResult> evaluate(const protocol::Request& request, RecordingSink* sink = nullptr) {
  RecordingSink local;
  return testEngine().evaluate(request, sink ? *sink : local);
}

// Copies, so a result of a temporary outcome can be kept.
EvaluateResult result(const Outcome<EvaluateResult>& o) {
  if (auto* e = failed(o)) {
    ADD_FAILURE() << "error: " << e->message;
    return {};
  }
  return std::get<EvaluateResult>(o);
}

ErrorInfo error(const Outcome<EvaluateResult>& o) {
  if (!failed(o)) {
    ADD_FAILURE() << "expected an error, got a result";
    return {};
  }
  return *failed(o);
}

}  // namespace

TEST(Evaluate, CorrectCandidatePassesAndIsTimed) {
  RecordingSink sink;
  const auto o =
      evaluate(evaluateRequest("good", candidateWith("return self.linear(x).clamp_min(0)")), &sink);
  const EvaluateResult r = result(o);
  EXPECT_TRUE(r.correctness.passed);
  ASSERT_EQ(r.correctness.seeds.size(), 2u);
  EXPECT_EQ(r.correctness.seeds[0].seed, 42);
  EXPECT_EQ(r.correctness.seeds[1].seed, 43);
  EXPECT_EQ(r.correctness.seeds[0].atol, 1e-2);
  EXPECT_LE(r.correctness.seeds[0].maxAbsErr, 1e-6);  // same weights (same seed), same math
  EXPECT_FALSE(r.correctness.inputsMutated);
  ASSERT_EQ(r.correctness.outputs.size(), 1u);
  EXPECT_EQ(r.correctness.outputs[0].dtype, "float32");
  EXPECT_EQ(r.correctness.outputs[0].shape, (std::vector<std::int64_t>{8, 16}));
  EXPECT_TRUE(r.correctness.poison.applied);  // the candidate's allocations are junk-filled
  EXPECT_NE(r.correctness.poison.note.find("cpu"), std::string::npos);
  EXPECT_TRUE(r.runtimeFlags.empty()) << r.runtimeFlags.front().message;
  EXPECT_TRUE(r.probes["repeat-calls"]["ran"].get<bool>());
  ASSERT_TRUE(r.timing);
  EXPECT_EQ(r.timing->clock, "wall");
  EXPECT_EQ(r.timing->trials, 5);
  EXPECT_GT(r.timing->reference.medianMs, 0);
  EXPECT_GT(r.timing->candidate.medianMs, 0);
  EXPECT_DOUBLE_EQ(r.timing->speedup, r.timing->reference.medianMs / r.timing->candidate.medianMs);
  EXPECT_LE(r.timing->reference.minMs, r.timing->reference.medianMs);
  EXPECT_EQ(r.device, "cpu");
  EXPECT_EQ(r.codeHash.rfind("sha256:", 0), 0u);
  EXPECT_EQ(r.codeHash.size(), 7u + 64u);
  EXPECT_FALSE(r.environment.torch.empty());
  EXPECT_FALSE(r.environment.python.empty());
  EXPECT_NE(r.kernelsNote.find("cpu"), std::string::npos);
  const std::vector<Phase> phases = {Phase::Load, Phase::Correctness, Phase::Probes, Phase::Timing};
  EXPECT_EQ(sink.phases, phases);
  EXPECT_GT(sink.progressEvents, 2);
}

TEST(Evaluate, WrongCandidateFailsWithItsError) {
  const auto o = evaluate(evaluateRequest("wrong", candidateWith("return self.linear(x) * 1.5")));
  const EvaluateResult r = result(o);
  EXPECT_FALSE(r.correctness.passed);
  ASSERT_FALSE(r.correctness.seeds.empty());
  EXPECT_FALSE(r.correctness.seeds[0].passed);
  EXPECT_GT(r.correctness.seeds[0].maxAbsErr, 0.05);
  EXPECT_GT(r.correctness.seeds[0].maxRelErr, 0.4);  // 1.5x on positive values: relative error 0.5
  EXPECT_NE(r.correctness.seeds[0].message.find("values differ by more than"), std::string::npos)
      << r.correctness.seeds[0].message;
  EXPECT_FALSE(r.timing);
  EXPECT_EQ(r.timingNote, "not timed: the candidate is incorrect");
}

// The candidate's own get_inputs: values drawn another way from the same distribution (as a program that
// draws on the GPU gets, under the same seed) define the same problem; values from another distribution do
// not. Seen on the H100: CUDA-L1's L1/5, L1/24 and L1/26 draw `torch.randn(..., device="cuda")`.
TEST(Evaluate, ProgramInputsDrawnAlikeAreTheSameProblemOthersAreNot) {
  auto flagsWith = [](const std::string& id, const std::string& inputs) {
    std::string code = candidateWith("return torch.relu(self.linear(x))");
    const std::string line = "return [torch.randn(8, 16)]";
    code.replace(code.find(line), line.size(), inputs);
    return result(evaluate(evaluateRequest(id, code))).runtimeFlags;
  };
  auto changedInputs = [](const std::vector<protocol::RuntimeFlag>& flags) {
    return std::count_if(flags.begin(), flags.end(),
                         [](const protocol::RuntimeFlag& f) { return f.family == "changed-inputs"; });
  };
  EXPECT_EQ(changedInputs(flagsWith("alike", "return [torch.randn(8, 16).flip(0)]")), 0);
  const auto other = flagsWith("uniform", "return [torch.rand(8, 16)]");
  ASSERT_EQ(changedInputs(other), 1);
  const auto& flag = *std::find_if(other.begin(), other.end(),
                                   [](const protocol::RuntimeFlag& f) { return f.family == "changed-inputs"; });
  EXPECT_NE(flag.message.find("values drawn otherwise"), std::string::npos) << flag.message;
}

TEST(Evaluate, InputMutationIsReported) {
  const auto o = evaluate(
      evaluateRequest("mutates", candidateWith("x.mul_(2)\n        return torch.relu(self.linear(x / 2))")));
  const EvaluateResult r = result(o);
  EXPECT_TRUE(r.correctness.passed);  // its output is right; changing the caller's input is the finding
  EXPECT_TRUE(r.correctness.inputsMutated);
  ASSERT_EQ(r.correctness.mutations.size(), 2u);
  EXPECT_EQ(r.correctness.mutations[0].model, "candidate");
  EXPECT_EQ(r.correctness.mutations[0].input, 0);
  EXPECT_EQ(r.correctness.mutations[0].seed, 42);
}

TEST(Evaluate, TensorSubclassOutputFails) {
  const std::string code = candidateWith("return torch.relu(self.linear(x)).as_subclass(Lazy)") +
                           "\n\nclass Lazy(torch.Tensor):\n    pass\n";
  const EvaluateResult r = result(evaluate(evaluateRequest("subclass", code)));
  EXPECT_FALSE(r.correctness.passed);
  ASSERT_FALSE(r.correctness.seeds.empty());
  EXPECT_NE(r.correctness.seeds[0].message.find("(a subclass of torch.Tensor), not a plain torch.Tensor"),
            std::string::npos)
      << r.correctness.seeds[0].message;
}

TEST(Evaluate, LazyObjectOutputFails) {
  // An object that only turns into the right tensor when torch functions touch it.
  const std::string code = candidateWith("return Deferred(lambda: torch.relu(self.linear(x)))") + R"(

class Deferred:
    def __init__(self, make):
        self.make = make

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        args = [a.make() if isinstance(a, Deferred) else a for a in args]
        return func(*args, **(kwargs or {}))
)";
  const EvaluateResult r = result(evaluate(evaluateRequest("lazy", code)));
  EXPECT_FALSE(r.correctness.passed);
  ASSERT_FALSE(r.correctness.seeds.empty());
  EXPECT_NE(r.correctness.seeds[0].message.find("Deferred, not a torch.Tensor"), std::string::npos)
      << r.correctness.seeds[0].message;
}

TEST(Evaluate, NaNWhereTheReferenceIsFiniteFails) {
  const EvaluateResult r = result(
      evaluate(evaluateRequest("nan", candidateWith("return torch.relu(self.linear(x)) * float('nan')"))));
  EXPECT_FALSE(r.correctness.passed);
  ASSERT_FALSE(r.correctness.seeds.empty());
  EXPECT_NE(r.correctness.seeds[0].message.find("NaN/inf values where the reference is finite"),
            std::string::npos)
      << r.correctness.seeds[0].message;
}

TEST(Evaluate, RaisingCandidateIsARuntimeErrorOnItsLine) {
  const auto o =
      evaluate(evaluateRequest("raises", candidateWith("raise ValueError('no kernel for this shape')")));
  const ErrorInfo e = error(o);
  EXPECT_EQ(e.kind, protocol::ErrorKind::Runtime);
  EXPECT_EQ(e.message, "ValueError: no kernel for this shape");
  EXPECT_EQ(e.program, "candidate");
  EXPECT_EQ(e.line, kForwardLine + 1);
  EXPECT_EQ(e.phase, "correctness");
  ASSERT_FALSE(e.traceback.empty());
  EXPECT_EQ(e.traceback.back().program, "candidate");
  EXPECT_EQ(e.traceback.back().function, "forward");
  EXPECT_EQ(e.traceback.back().text, "raise ValueError('no kernel for this shape')");
  EXPECT_FALSE(e.runnerExits);
}

TEST(Evaluate, TheEngineServesTheNextRequestAfterAnError) {
  ASSERT_TRUE(failed(evaluate(evaluateRequest("first", candidateWith("raise RuntimeError('boom')")))));
  EXPECT_TRUE(result(evaluate(evaluateRequest("second", candidateWith("return torch.relu(self.linear(x))"))))
                  .correctness.passed);
}

TEST(Evaluate, CandidateThatNeedsCudaFailsOnCpuWithALine) {
  const ErrorInfo e =
      error(evaluate(evaluateRequest("cuda", candidateWith("return torch.relu(self.linear(x.cuda()))"))));
  EXPECT_EQ(e.kind, protocol::ErrorKind::Runtime);
  EXPECT_EQ(e.program, "candidate");
  EXPECT_EQ(e.line, kForwardLine + 1);
}

TEST(Evaluate, SyntaxErrorIsALoadErrorOnItsLine) {
  const ErrorInfo e =
      error(evaluate(evaluateRequest("syntax", candidateWith("return torch.relu(self.linear(x)"))));
  EXPECT_EQ(e.kind, protocol::ErrorKind::Load);
  EXPECT_EQ(e.program, "candidate");
  EXPECT_EQ(e.phase, "load");
  ASSERT_TRUE(e.line);
  EXPECT_GE(*e.line, kForwardLine + 1);
  EXPECT_NE(e.message.find("SyntaxError"), std::string::npos) << e.message;
}

TEST(Evaluate, MissingModelNewIsALoadError) {
  std::string code = candidateWith("return x");
  code.replace(code.find("ModelNew"), 8, "ModelOld");
  const ErrorInfo e = error(evaluate(evaluateRequest("missing", code)));
  EXPECT_EQ(e.kind, protocol::ErrorKind::Load);
  EXPECT_EQ(e.message, "the candidate program does not define `ModelNew`");
}

TEST(Evaluate, RaisingReferenceIsBlamedOnTheReference) {
  std::string reference = kReference;
  const std::string line = "        return torch.relu(self.linear(x))";
  reference.replace(reference.find(line), line.size(), "        raise RuntimeError('reference broke')");
  const ErrorInfo e = error(evaluate(evaluateRequest("badref", candidateWith("return x"), reference)));
  EXPECT_EQ(e.kind, protocol::ErrorKind::Runtime);
  EXPECT_EQ(e.program, "reference");
  EXPECT_EQ(e.line, kForwardLine + 1);
}

TEST(Evaluate, TupleOutputsAreComparedOneByOne) {
  std::string reference = kReference;
  const std::string line = "        return torch.relu(self.linear(x))";
  reference.replace(reference.find(line), line.size(),
                    "        y = self.linear(x)\n        return y, y.sum(dim=1)");
  std::string candidate = reference;
  candidate.replace(candidate.find("class Model("), 12, "class ModelNew(");
  candidate.replace(candidate.find("y.sum(dim=1)"), 12, "y.sum(dim=1) + 1");
  const EvaluateResult r = result(evaluate(evaluateRequest("tuple", candidate, reference)));
  EXPECT_FALSE(r.correctness.passed);
  ASSERT_EQ(r.correctness.outputs.size(), 2u);
  EXPECT_EQ(r.correctness.outputs[1].shape, (std::vector<std::int64_t>{8}));
  ASSERT_FALSE(r.correctness.seeds.empty());
  EXPECT_EQ(r.correctness.seeds[0].message.rfind("output 1: ", 0), 0u) << r.correctness.seeds[0].message;
}

TEST(Evaluate, CandidateGetInputsIsIgnored) {
  // Only the reference's inputs count: a candidate cannot shrink the problem it is timed on.
  std::string code = candidateWith("return torch.relu(self.linear(x))");
  code.replace(code.find("torch.randn(8, 16)"), 18, "torch.randn(1, 16)");
  const EvaluateResult r = result(evaluate(evaluateRequest("inputs", code)));
  EXPECT_TRUE(r.correctness.passed);
  EXPECT_EQ(r.correctness.outputs[0].shape, (std::vector<std::int64_t>{8, 16}));
}

TEST(Evaluate, TorchSettingsChangedByTheCandidateAreReportedAndRestored) {
  const std::string code =
      "import torch\ntorch.set_num_threads(1)\ntorch.set_default_dtype(torch.float64)\n" +
      candidateWith("return torch.relu(self.linear(x.double())).float()");
  const EvaluateResult r = result(evaluate(evaluateRequest("settings", code)));
  ASSERT_FALSE(r.torchSettingsChanged.empty());
  bool dtype = false;
  for (const auto& change : r.torchSettingsChanged)
    dtype = dtype || change == "torch.get_default_dtype(): torch.float32 -> torch.float64";
  EXPECT_TRUE(dtype) << ::testing::PrintToString(r.torchSettingsChanged);
  // Restored: the next request starts from float32 again.
  const EvaluateResult next =
      result(evaluate(evaluateRequest("after", candidateWith("return torch.relu(self.linear(x))"))));
  EXPECT_TRUE(next.torchSettingsChanged.empty()) << ::testing::PrintToString(next.torchSettingsChanged);
  EXPECT_EQ(next.correctness.outputs[0].dtype, "float32");
}

TEST(Evaluate, ToleranceOverrideApplies) {
  auto request = evaluateRequest("tolerance", candidateWith("return torch.relu(self.linear(x)) + 0.05"));
  EXPECT_FALSE(result(evaluate(request)).correctness.passed);
  request.id = "tolerance2";
  request.options.atol = 0.1;
  const EvaluateResult r = result(evaluate(request));
  EXPECT_TRUE(r.correctness.passed);
  EXPECT_EQ(r.correctness.seeds[0].atol, 0.1);
}

TEST(Evaluate, AskingForCudaWithoutOneIsAProtocolError) {
  if (testEngine().hello().index() == 0 &&
      std::get<protocol::Environment>(testEngine().hello()).device == "cuda")
    GTEST_SKIP() << "this machine has CUDA";
  auto request = evaluateRequest("nocuda", candidateWith("return x"));
  request.options.device = "cuda";
  const ErrorInfo e = error(evaluate(request));
  EXPECT_EQ(e.kind, protocol::ErrorKind::Protocol);
  EXPECT_NE(e.message.find("sees no CUDA device"), std::string::npos) << e.message;
}

TEST(Evaluate, ATimingFunctionReplacedByAProgramThatThenFailsIsPutBack) {
  const std::string code =
      "import time\ntime.perf_counter = lambda: 0.0\nraise RuntimeError('after the patch')\n" +
      candidateWith("return torch.relu(self.linear(x))");
  const ErrorInfo e = error(evaluate(evaluateRequest("patch-then-fail", code)));
  EXPECT_EQ(e.kind, protocol::ErrorKind::Load);
  const EvaluateResult next =
      result(evaluate(evaluateRequest("after-patch", candidateWith("return torch.relu(self.linear(x))"))));
  EXPECT_TRUE(next.runtimeFlags.empty()) << next.runtimeFlags.front().message;
  EXPECT_GT(pybind11::module_::import("time").attr("perf_counter")().cast<double>(), 0.0);
}

TEST(Evaluate, TimerPatchIsFlaggedOnItsLineAndUndone) {
  const std::string code =
      "import time\n_raw = time.perf_counter\n\n\ndef _scaled():\n    return _raw() / 2\n\n\n"
      "time.perf_counter = _scaled\n" +
      candidateWith("return torch.relu(self.linear(x))");
  const EvaluateResult r = result(evaluate(evaluateRequest("timer", code)));
  ASSERT_EQ(r.runtimeFlags.size(), 1u) << r.runtimeFlags.size();
  EXPECT_EQ(r.runtimeFlags[0].family, "timer-patch");
  EXPECT_EQ(r.runtimeFlags[0].lines, std::vector<int>{5});
  EXPECT_EQ(r.runtimeFlags[0].evidence["replaced"][0], "time.perf_counter");
  EXPECT_EQ(pybind11::module_::import("time").attr("perf_counter").attr("__name__").cast<std::string>(),
            "perf_counter");
}

// Python's collector is off during each timing call (warm-up and trials), as in timeit, on for every other
// call, and on again after the request. The candidate logs gc.isenabled() per call where the test can read it.
TEST(Evaluate, TheGarbageCollectorPausesOnlyDuringTimingCalls) {
  (void)testEngine();  // Python must be up before the test touches it
  pybind11::module_ builtins = pybind11::module_::import("builtins");
  builtins.attr("ks_gc_log") = pybind11::list();
  const std::string code = "import builtins\nimport gc\n" +
                           candidateWith("builtins.ks_gc_log.append(gc.isenabled())\n"
                                         "        return torch.relu(self.linear(x))");
  const EvaluateResult r = result(evaluate(evaluateRequest("gc", code)));
  ASSERT_TRUE(r.timing);
  ASSERT_TRUE(r.timing->speedupCi95);
  EXPECT_LE(r.timing->speedupCi95->low, r.timing->speedupCi95->high);
  std::vector<bool> log;
  for (const auto& seen : builtins.attr("ks_gc_log")) log.push_back(seen.cast<bool>());
  builtins.attr("__delattr__")("ks_gc_log");
  // warmup + trials of evaluateRequest, then the call on an unseen seed after the loop, made like a timed one
  // (validation-drift)
  const std::size_t timingCalls = 1 + 5 + 1;
  ASSERT_GT(log.size(), timingCalls + 2);  // 2 correctness seeds, the probes' calls, then timing
  for (std::size_t i = 0; i < log.size(); ++i)
    EXPECT_EQ(log[i], i < log.size() - timingCalls) << "call " << i + 1 << " of " << log.size();
  EXPECT_TRUE(pybind11::module_::import("gc").attr("isenabled")().cast<bool>());
}

TEST(Evaluate, CpuPinHoldsTheTimingThreadToOneCpuOnlyDuringTiming) {
  (void)testEngine();
  pybind11::module_ builtins = pybind11::module_::import("builtins");
  builtins.attr("ks_cpu_log") = pybind11::list();
  const std::string code = "import builtins\nimport os\n" +
                           candidateWith("builtins.ks_cpu_log.append(len(os.sched_getaffinity(0)))\n"
                                         "        return torch.relu(self.linear(x))");
  protocol::Request req = evaluateRequest("pin", code);
  req.options.cpuPin = protocol::CpuPinScope::Thread;
  const EvaluateResult r = result(evaluate(req));
  std::vector<int> log;
  for (const auto& seen : builtins.attr("ks_cpu_log")) log.push_back(seen.cast<int>());
  builtins.attr("__delattr__")("ks_cpu_log");
  ASSERT_TRUE(r.timing);
  ASSERT_TRUE(r.timing->pinnedCpu);
  EXPECT_EQ(r.timing->cpuPin, protocol::CpuPinScope::Thread);
  EXPECT_GE(*r.timing->pinnedCpu, 0);
  const std::size_t timingCalls = 1 + 5 + 1;  // warmup + trials, and the unseen-seed call after the loop
  ASSERT_GT(log.size(), timingCalls);
  const int before = log.front();  // the runner's CPU set before timing, restored after it
  for (std::size_t i = 0; i < log.size(); ++i)
    EXPECT_EQ(log[i], i < log.size() - timingCalls ? before : 1) << "call " << i + 1 << " of " << log.size();

  // On cpu, where torch's own threads do the work, the default pins nothing.
  const EvaluateResult unpinned =
      result(evaluate(evaluateRequest("unpinned", candidateWith("return torch.relu(self.linear(x))"))));
  ASSERT_TRUE(unpinned.timing);
  EXPECT_FALSE(unpinned.timing->pinnedCpu);
  EXPECT_EQ(unpinned.timing->cpuPin, protocol::CpuPinScope::None);
}
