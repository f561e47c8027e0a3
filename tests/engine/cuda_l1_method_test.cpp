// CUDA-L1's evaluation (cuda_l1_method.h) on CPU, where only its bookkeeping runs: the check's trial seeds
// (torch.randint after torch.manual_seed(42)), its laziness check, its allclose at 1e-2 and the first failing
// trial ending it, the shared (not cloned) inputs, models built afresh per global trial from seed 42 + g,
// the warm-up, the per-trial order, the scores and the early stop below 0.3. On the GPU the same loop is
// checked against CUDA-L1's own eval_cuda.py by bench/gpu/crosscheck-l1.sh (docs/method-fidelity.md).
#include "core/engine/cuda_l1_method.h"

#include <gtest/gtest.h>
#include <pybind11/eval.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "tests/engine/python_environment.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

// A task and a candidate in one scope: `candidate_body` is ModelNew.forward's body (x is the input), `log`
// records every call and construction.
py::dict programs(const std::string& candidateBody, const std::string& extra = "") {
  testing::testEngine();
  py::dict scope;
  scope["__builtins__"] = py::module_::import("builtins");
  py::exec(R"PY(
import time
import torch
log = []

class Model(torch.nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(4))
        log.append(("ref-init", scale, round(float(self.w[0]), 6)))
    def forward(self, x):
        log.append(("ref", id(x), float(x.sum())))
        return x * 2

def get_init_inputs():
    return [3]

def get_inputs():
    return [torch.randn(8, 4)]
)PY",
           scope);
  py::exec("class ModelNew(torch.nn.Module):\n"
           "    def __init__(self, scale):\n"
           "        super().__init__()\n"
           "        self.w = torch.nn.Parameter(torch.randn(4))\n"
           "        log.append(('cand-init', scale, round(float(self.w[0]), 6)))\n"
           "    def forward(self, x):\n"
           "        log.append(('cand', id(x), float(x.sum())))\n" +
               candidateBody + "\n" + extra,
           scope);
  return scope;
}

CudaL1Programs of(const py::dict& scope) {
  return {scope["Model"], scope["ModelNew"], scope["get_init_inputs"], scope["get_inputs"], false};
}

TEST(CudaL1Check, PassesTenTrialsOnCudaL1sOwnSeedsWithBothModelsOnTheSameTensors) {
  const py::dict scope = programs("        return x * 2 + 0.001");
  const CudaL1CheckOutcome c = runCudaL1Check(of(scope), "cpu", {});
  EXPECT_TRUE(c.ok) << c.message;
  EXPECT_EQ(c.trials, 10);
  EXPECT_EQ(c.passed, 10);
  EXPECT_EQ(c.failedTrial, 0);
  EXPECT_NEAR(c.maxDiff, 0.001, 1e-5);
  EXPECT_GT(c.worstShare, 0.01);
  EXPECT_LT(c.worstShare, 0.1);
  // Both models built under manual_seed(42): the same first weight; the trial inputs are the ones
  // torch.randint draws after manual_seed(42), and the candidate gets the reference's very tensors.
  const auto log = scope["log"].cast<py::list>();
  const auto refInit = log[0].cast<py::tuple>(), candInit = log[1].cast<py::tuple>();
  EXPECT_EQ(refInit[0].cast<std::string>(), "ref-init");
  EXPECT_EQ(refInit[2].cast<double>(), candInit[2].cast<double>());
  py::exec("torch.manual_seed(42)\nseeds = [torch.randint(0, 2**32 - 1, (1,)).item() for _ in range(10)]\n"
           "torch.manual_seed(seeds[3])\nfourth = float(get_inputs()[0].sum())\n",
           scope);
  // log: 2 inits, the laziness call, then (ref, cand) per trial
  const auto ref4 = log[3 + 2 * 3].cast<py::tuple>(), cand4 = log[3 + 2 * 3 + 1].cast<py::tuple>();
  EXPECT_EQ(ref4[0].cast<std::string>(), "ref");
  EXPECT_NEAR(ref4[2].cast<double>(), scope["fourth"].cast<double>(), 1e-9);
  EXPECT_EQ(ref4[1].cast<long long>(), cand4[1].cast<long long>());
}

TEST(CudaL1Check, TheFirstTrialOutsideAllcloseEndsItInCudaL1sWords) {
  const py::dict scope = programs("        return x * 2 + 0.5");
  const CudaL1CheckOutcome c = runCudaL1Check(of(scope), "cpu", {});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.message, "Value mismatch to the original model");
  EXPECT_EQ(c.failedTrial, 1);
  EXPECT_EQ(c.passed, 0);
  EXPECT_NEAR(c.maxDiff, 0.5, 1e-6);
  EXPECT_GT(c.worstShare, 1.0);
  py::exec("torch.manual_seed(42)\nfirst = torch.randint(0, 2**32 - 1, (1,)).item()\n", scope);
  EXPECT_EQ(c.failedSeed, scope["first"].cast<std::int64_t>());
}

TEST(CudaL1Check, ShapeMismatchLazyOutputAndARaisingCallAreItsOwnMessages) {
  EXPECT_EQ(runCudaL1Check(of(programs("        return (x * 2)[:4]")), "cpu", {}).message,
            "Shape mismatch to the original model");
  EXPECT_EQ(runCudaL1Check(of(programs("        return [1.0]")), "cpu", {}).message,
            "Output is not a tensor: <class 'float'>");
  const CudaL1CheckOutcome raised =
      runCudaL1Check(of(programs("        if len(log) > 6:\n            raise ValueError('boom')\n        return x * 2")),
                     "cpu", {});
  EXPECT_FALSE(raised.ok);
  EXPECT_EQ(raised.message.rfind("Runtime error in trial 2: boom", 0), 0u) << raised.message;
  EXPECT_EQ(raised.passed, 1);
}

TEST(CudaL1Timing, BuildsTheModelsAfreshPerGlobalTrialAndScoresTheRatioOfMeans) {
  const py::dict scope = programs("        return x * 2");
  CudaL1TimingSettings s;
  s.globalTrials = 3;
  s.perfTrials = 4;
  const CudaL1TimingOutcome t = runCudaL1Timing(of(scope), "cpu", s);
  ASSERT_EQ(t.scores.size(), 3u);
  EXPECT_FALSE(t.stoppedEarly);
  for (std::size_t g = 0; g < 3; ++g) {
    EXPECT_GT(t.referenceMs[g], 0);
    EXPECT_NEAR(t.scores[g], t.referenceMs[g] / t.candidateMs[g], 1e-9);
  }
  // Per global trial: the warm-up model, then both models from seed 42 + g; 3 warm-up calls of each on one
  // input; 4 trials whose two calls share their input.
  const auto log = scope["log"].cast<py::list>();
  int inits = 0, refCalls = 0, candCalls = 0, sharedTrials = 0;
  std::vector<double> firstWeights;
  for (std::size_t i = 0; i < log.size(); ++i) {
    const auto e = log[i].cast<py::tuple>();
    const std::string what = e[0].cast<std::string>();
    if (what == "ref-init" || what == "cand-init") {
      ++inits;
      if (what == "cand-init") firstWeights.push_back(e[2].cast<double>());
    }
    refCalls += what == "ref";
    candCalls += what == "cand";
  }
  EXPECT_EQ(inits, 3 * 3);
  EXPECT_EQ(refCalls, 3 * (1 + 3 + 4));
  EXPECT_EQ(candCalls, 3 * (3 + 4));
  ASSERT_EQ(firstWeights.size(), 3u);
  py::exec("torch.manual_seed(43)\nw43 = round(float(torch.randn(4)[0]), 6)\n", scope);
  EXPECT_EQ(firstWeights[1], scope["w43"].cast<double>());
  for (std::size_t i = 0; i + 1 < log.size(); ++i) {
    const auto a = log[i].cast<py::tuple>(), b = log[i + 1].cast<py::tuple>();
    const std::string wa = a[0].cast<std::string>(), wb = b[0].cast<std::string>();
    if ((wa == "ref" && wb == "cand") || (wa == "cand" && wb == "ref"))
      sharedTrials += a[1].cast<long long>() == b[1].cast<long long>();
  }
  EXPECT_GE(sharedTrials, 3 * (1 + 4));  // every warm-up pair and every trial pair
}

TEST(CudaL1Timing, TheOrderVariesPerTrialAndFollowsTheOrderSeed) {
  auto orders = [](std::uint64_t seed) {
    const py::dict scope = programs("        return x * 2");
    CudaL1TimingSettings s;
    s.globalTrials = 1;
    s.perfTrials = 16;
    s.warmup = 0;
    s.orderSeed = seed;
    runCudaL1Timing(of(scope), "cpu", s);
    std::string firsts;
    const auto log = scope["log"].cast<py::list>();
    for (std::size_t i = 4; i < log.size(); i += 2) firsts += log[i].cast<py::tuple>()[0].cast<std::string>()[0];
    return firsts;
  };
  const std::string a = orders(1), b = orders(1), c = orders(2);
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a.find('r'), std::string::npos);
  EXPECT_NE(a.find('c'), std::string::npos);
}

TEST(CudaL1Timing, EveryTrialWalksTheCandidatesAttributesBeforeItsFirstCallAsFindModelStreamsDoes) {
  // eval_cuda.py calls find_model_streams(custom_model) in every trial, streams or not: host work between
  // the previous trial's synchronize and this trial's first timed call. A property of ModelNew's logs each
  // walk.
  const py::dict scope = programs("        return x * 2",
                                  "    @property\n"
                                  "    def looked_at(self):\n"
                                  "        log.append(('walk',))\n"
                                  "        return None\n");
  CudaL1TimingSettings s;
  s.globalTrials = 2;
  s.perfTrials = 5;
  s.warmup = 1;
  runCudaL1Timing(of(scope), "cpu", s);
  const auto log = scope["log"].cast<py::list>();
  int walks = 0, walkThenCall = 0;
  for (std::size_t i = 0; i < log.size(); ++i) {
    if (log[i].cast<py::tuple>()[0].cast<std::string>() != "walk") continue;
    ++walks;
    if (i + 1 < log.size()) {
      const std::string next = log[i + 1].cast<py::tuple>()[0].cast<std::string>();
      walkThenCall += next == "ref" || next == "cand";
    }
  }
  EXPECT_EQ(walks, 2 * 5);
  EXPECT_EQ(walkThenCall, 2 * 5);  // each walk is followed by that trial's first call
}

TEST(CudaL1Timing, AScoreBelowPointThreeEndsTheGlobalTrialsAsEvalPipelineDoes) {
  const py::dict scope = programs("        time.sleep(0.004)\n        return x * 2");
  CudaL1TimingSettings s;
  s.globalTrials = 5;
  s.perfTrials = 3;
  s.warmup = 1;
  const CudaL1TimingOutcome t = runCudaL1Timing(of(scope), "cpu", s);
  ASSERT_EQ(t.scores.size(), 1u);
  EXPECT_TRUE(t.stoppedEarly);
  EXPECT_LT(t.scores[0], 0.3);
}

TEST(CudaL1Timing, AFlushCallableRunsBeforeEachTimedCallAndARaisingModelPropagates) {
  const py::dict scope = programs("        return x * 2");
  int flushes = 0;
  CudaL1TimingSettings s;
  s.globalTrials = 2;
  s.perfTrials = 3;
  s.flush = py::cpp_function([&flushes] { ++flushes; });
  runCudaL1Timing(of(scope), "cpu", s);
  EXPECT_EQ(flushes, 0);  // on CPU there is no cache to flush: the host clock alone
  const py::dict raising = programs("        if len(log) > 12:\n            raise RuntimeError('illegal')\n        return x * 2");
  EXPECT_THROW(runCudaL1Timing(of(raising), "cpu", {}), py::error_already_set);
}

}  // namespace
}  // namespace ks::engine
