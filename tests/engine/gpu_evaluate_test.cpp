// CUDA evidence: event timing beside the host clock, poisoned freed memory, the profiler's kernel list,
// load_inline CUDA builds mapped to Python lines, native .cu kernels; warm_up's CUDA steps. Skipped without a
// CUDA device.
#include <gtest/gtest.h>
#include <pybind11/eval.h>
#include <pybind11/pybind11.h>

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "core/engine/kernel_profile.h"
#include "tests/engine/python_environment.h"
#include "tests/engine/task_programs.h"

using namespace ks;
using namespace ks::engine;
using namespace ks::engine::testing;

namespace {

class GpuEvaluate : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto hello = testEngine().hello();
    ASSERT_FALSE(failed(hello)) << failed(hello)->message;
    const auto& env = std::get<protocol::Environment>(hello);
    if (env.device != "cuda")
      GTEST_SKIP() << "no CUDA device: torch " << env.torch
                   << (env.cuda.empty() ? " was built without CUDA" : " (CUDA " + env.cuda + ") sees no GPU");
  }

  static protocol::Request onCuda(protocol::Request r) {
    r.options.device = "cuda";
    r.options.trials = 20;
    r.options.warmup = 3;
    return r;
  }

  // A copy, so the result of a temporary outcome can be kept.
  static protocol::EvaluateResult ok(const Outcome<protocol::EvaluateResult>& o) {
    if (auto* e = failed(o)) {
      ADD_FAILURE() << protocol::errorKindName(e->kind) << " error: " << e->message;
      return {};
    }
    return std::get<protocol::EvaluateResult>(o);
  }
};

const std::string kCudaRelu = R"(import torch
from torch.utils.cpp_extension import load_inline

cuda_source = """
__global__ void kscope_relu_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] > 0.f ? x[i] : 0.f;
}

torch::Tensor kscope_relu(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    kscope_relu_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""
cpp_source = "torch::Tensor kscope_relu(torch::Tensor x);"
relu_ext = load_inline(name="kscope_gpu_relu", cpp_sources=cpp_source, cuda_sources=cuda_source,
                       functions=["kscope_relu"])
)";

}  // namespace

TEST_F(GpuEvaluate, EventsHostClockPoisonAndKernels) {
  RecordingSink sink;
  const auto r = ok(testEngine().evaluate(
      onCuda(evaluateRequest("gpu-good", candidateWith("return self.linear(x).clamp_min(0)"))), sink));
  EXPECT_TRUE(r.correctness.passed);
  EXPECT_EQ(r.device, "cuda");
  EXPECT_FALSE(r.environment.deviceName.empty());
  EXPECT_FALSE(r.environment.driver.empty());
  EXPECT_FALSE(r.environment.cuda.empty());
  EXPECT_TRUE(r.correctness.poison.applied);
  EXPECT_GT(r.correctness.poison.blocks, 0);
  ASSERT_TRUE(r.timing);
  EXPECT_EQ(r.timing->clock, "cuda-events");
  EXPECT_GT(r.timing->candidate.medianMs, 0);
  EXPECT_GE(r.timing->candidate.hostMedianMs, r.timing->candidate.medianMs * 0.5);
  EXPECT_EQ(r.timing->cpuPin, protocol::CpuPinScope::Thread);  // the default on cuda
  EXPECT_TRUE(r.timing->pinnedCpu);
  ASSERT_TRUE(r.timing->candidate.kernelMs);
  EXPECT_GT(*r.timing->candidate.kernelMs, 0);
  bool refKernel = false, candKernel = false;
  for (const auto& k : r.kernels) {
    refKernel = refKernel || k.model == "reference";
    candKernel = candKernel || k.model == "candidate";
    EXPECT_GT(k.calls, 0);
  }
  EXPECT_TRUE(refKernel && candKernel) << r.kernelsNote;
  EXPECT_EQ(sink.phases.back(), protocol::Phase::Profile);
}

// A kernel profile leaves the process as fast as it found it: Kineto detaches CUPTI after the session
// (kernel_profile.cpp). Without that, a CUDA graph of small kernels replays measurably slower for the rest of
// the process (1.32x for CUDA-L1's L3/35 on the H200), and the runner times later requests after a profile.
// ctest runs each test in a process of its own, so no earlier profile of this binary is in the way.
TEST_F(GpuEvaluate, AKernelProfileLeavesLaterCallsAsFastAsBefore) {
  namespace py = pybind11;
  py::dict scope;
  py::exec(R"PY(
import torch
x = torch.zeros(256, device="cuda")
side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    for _ in range(3):
        x.add_(1)
torch.cuda.current_stream().wait_stream(side)
graph = torch.cuda.CUDAGraph()
with torch.cuda.graph(graph):
    for _ in range(4000):
        x.add_(1)


def replay_ms(n=41):
    times = []
    for _ in range(n):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[n // 2]
)PY",
           scope);
  const double before = scope["replay_ms"]().cast<double>();
  const std::filesystem::path trace = std::filesystem::temp_directory_path() / "kscope-profile-leaves.trace.json";
  const ProfiledCall called = profileKernels([&] { scope["graph"].attr("replay")(); }, "candidate", trace);
  std::filesystem::remove(trace);
  EXPECT_FALSE(called.kernels.empty());
  const double after = scope["replay_ms"]().cast<double>();
  std::cout << "graph replay: " << before << " ms before the profile, " << after << " ms after\n";
  EXPECT_LT(after / before, 1.08) << before << " ms before, " << after << " ms after";
}

// The profiler step runs the profiler as the profile phase does; a profile after it still lists kernels.
TEST_F(GpuEvaluate, WarmUpTimesTheCudaStepsAndTheProfilerStillWorksAfter) {
  protocol::Request request;
  request.id = "gpu-warm";
  request.op = protocol::Op::WarmUp;
  request.options.device = "cuda";
  const auto warmed = testEngine().warmUp(request);
  ASSERT_FALSE(failed(warmed)) << failed(warmed)->message;
  const auto& w = std::get<protocol::WarmUpResult>(warmed);
  EXPECT_EQ(w.device, "cuda");
  std::vector<std::string> names;
  double sum = 0;
  for (const auto& step : w.steps) {
    names.push_back(step.step);
    EXPECT_GE(step.seconds, 0) << step.step;
    sum += step.seconds;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"cuda_context", "cublas", "cudnn", "profiler"}));
  EXPECT_NEAR(w.seconds, sum, 1e-9);

  RecordingSink sink;
  const auto r = ok(testEngine().evaluate(
      onCuda(evaluateRequest("gpu-after-warm", candidateWith("return self.linear(x).clamp_min(0)"))), sink));
  EXPECT_TRUE(r.correctness.passed);
  EXPECT_FALSE(r.kernels.empty()) << r.kernelsNote;
}

TEST_F(GpuEvaluate, StaleReferenceMemoryIsPoisoned) {
  // The reference leaves its answer in a freed block; a candidate that only allocates would read it back.
  std::string reference = kReference;
  const std::string line = "        return torch.relu(self.linear(x))";
  reference.replace(reference.find(line), line.size(),
                    "        y = torch.relu(self.linear(x))\n        return y.clone()");
  const std::string candidate = candidateWith("return torch.empty(8, 16, device=x.device)");
  RecordingSink sink;
  const auto r = ok(testEngine().evaluate(onCuda(evaluateRequest("gpu-stale", candidate, reference)), sink));
  EXPECT_FALSE(r.correctness.passed);
  ASSERT_FALSE(r.correctness.seeds.empty());
  EXPECT_NE(r.correctness.seeds[0].message.find("NaN"), std::string::npos) << r.correctness.seeds[0].message;
}

TEST_F(GpuEvaluate, OutputOnTheWrongDeviceFails) {
  RecordingSink sink;
  const auto r = ok(testEngine().evaluate(
      onCuda(evaluateRequest("gpu-cpu-out", candidateWith("return torch.relu(self.linear(x)).cpu()"))),
      sink));
  EXPECT_FALSE(r.correctness.passed);
  ASSERT_FALSE(r.correctness.seeds.empty());
  EXPECT_NE(r.correctness.seeds[0].message.find("is on cpu, expected cuda"), std::string::npos)
      << r.correctness.seeds[0].message;
}

TEST_F(GpuEvaluate, LoadInlineCudaKernelIsBuiltTimedAndProfiled) {
  RecordingSink sink;
  const std::string code =
      kCudaRelu + "\n" + candidateWith("return relu_ext.kscope_relu(self.linear(x).contiguous())");
  const auto r = ok(testEngine().evaluate(onCuda(evaluateRequest("gpu-ext", code)), sink));
  EXPECT_TRUE(r.correctness.passed);
  ASSERT_EQ(r.build.extensions.size(), 1u);
  EXPECT_TRUE(r.build.extensions[0].ok) << r.build.extensions[0].error;
  bool ours = false;
  for (const auto& k : r.kernels)
    ours = ours || (k.model == "candidate" && k.name.find("kscope_relu_kernel") != std::string::npos);
  EXPECT_TRUE(ours) << r.kernelsNote;
}

TEST_F(GpuEvaluate, CudaCompileErrorMapsToThePythonLine) {
  std::string code = kCudaRelu;
  code.replace(code.find("y[i] = x[i] > 0.f ? x[i] : 0.f;"), 31, "y[i] = undefined_name;");  // line 7
  code += "\n" + candidateWith("return relu_ext.kscope_relu(self.linear(x))");
  RecordingSink sink;
  const auto o = testEngine().evaluate(onCuda(evaluateRequest("gpu-broken", code)), sink);
  ASSERT_TRUE(failed(o));
  const auto& e = *failed(o);
  EXPECT_EQ(e.kind, protocol::ErrorKind::Build) << e.message;
  EXPECT_EQ(e.line, 7);
  ASSERT_FALSE(e.diagnostics.empty());
  EXPECT_EQ(e.diagnostics[0].file, "cuda.cu");
  EXPECT_EQ(e.diagnostics[0].pythonLine, 7);
}

TEST_F(GpuEvaluate, NativeKernelIsBuiltLoadedAndChecked) {
  protocol::Request r;
  r.id = "gpu-native";
  r.op = protocol::Op::Evaluate;
  r.task = protocol::TaskSpec{"native/add",
                              CodeLanguage::Cuda,
                              "A + B",
                              {{"A", {1024, 256}, "float32"}, {"B", {1024, 256}, "float32"}}};
  r.candidate = protocol::CandidateSpec{"add", CodeLanguage::Cuda, R"(#include <torch/types.h>

__global__ void add_kernel(const float* a, const float* b, float* c, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

torch::Tensor kscope_add(torch::Tensor a, torch::Tensor b) {
  auto c = torch::empty_like(a);
  long n = a.numel();
  add_kernel<<<(n + 255) / 256, 256>>>(a.data_ptr<float>(), b.data_ptr<float>(), c.data_ptr<float>(), n);
  return c;
}
)",
                                        // The entry is the user's function. (Until the shim called it as
                                        // `(entry)(...)`, an entry `add` silently called at::add here.)
                                        "kscope_add"};
  r.options.seeds = 2;
  RecordingSink sink;
  const auto result = ok(testEngine().evaluate(onCuda(r), sink));
  EXPECT_TRUE(result.correctness.passed);
  ASSERT_EQ(result.build.extensions.size(), 1u);
  EXPECT_TRUE(result.build.extensions[0].ok);
  EXPECT_FALSE(result.build.extensions[0].kernels.empty());  // ptxas -v: registers, shared memory, spills
  ASSERT_TRUE(result.timing);
  EXPECT_EQ(sink.phases.front(), protocol::Phase::Build);
}
