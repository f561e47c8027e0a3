#include "tests/view_logic/synthetic_run.h"

#include <algorithm>
#include <cmath>

namespace ks::test {
namespace {

const char* kMatmulReference = R"(import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)

def get_inputs():
    return [torch.randn(64, 64), torch.randn(64, 64)]

def get_init_inputs():
    return []
)";

const char* kScaleReference = R"(import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b) * 2.0

def get_inputs():
    return [torch.randn(64, 64), torch.randn(64, 64)]

def get_init_inputs():
    return []
)";

const char* kScaleCandidate = R"(import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = """
#include <torch/extension.h>

__global__ void scale_kernel(const float* x, float* y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * s;
}

torch::Tensor scale(torch::Tensor x, double s) {
    auto y = torch::empty_like(x);
    cudaStream_t side;
    cudaStreamCreate(&side);
    scale_kernel<<<(x.numel() + 255) / 256, 256, 0, side>>>(
        x.data_ptr<float>(), y.data_ptr<float>(), s, x.numel());
    return y;
}
"""

cpp_source = "torch::Tensor scale(torch::Tensor x, double s);"

ext = load_inline(name="scale_ext", cpp_sources=cpp_source, cuda_sources=cuda_source, functions=["scale"])

class ModelNew(nn.Module):
    def forward(self, a, b):
        return ext.scale(torch.mm(a, b), 2.0)

def get_inputs():
    return [torch.randn(64, 64), torch.randn(64, 64)]

def get_init_inputs():
    return []
)";

Measurement recorded(const std::string& baseline, double speedup) {
  Measurement m;
  m.baseline = baseline;
  m.speedup = speedup;
  m.device = "NVIDIA H100 80GB HBM3";
  return m;
}

Candidate candidate(const std::string& id, std::optional<std::string> code,
                    std::vector<Measurement> measurements) {
  Candidate c;
  c.id = id;
  c.code = std::move(code);
  c.measurements = std::move(measurements);
  return c;
}

Task task(int level, int number, const std::string& name, const std::string& reference) {
  Task t;
  t.level = level;
  t.number = number;
  t.name = name;
  t.referenceCode = reference;
  return t;
}

}  // namespace

int lineContaining(const std::string& text, const std::string& needle) {
  const std::size_t at = text.find(needle);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

std::shared_ptr<const LoadedRun> syntheticRun() {
  RunFile run;
  run.path = "/tmp/synthetic-run.jsonl";
  run.format = "kscope-run";
  run.title = "Synthetic run";

  Task matmul = task(1, 1, "1_Square_matrix_multiplication_", kMatmulReference);
  std::string fasterMatmul = kMatmulReference;
  fasterMatmul.replace(fasterMatmul.find("class Model("), 12, "class ModelNew(");
  fasterMatmul.replace(fasterMatmul.find("torch.matmul(a, b)"), 18, "torch.mm(a.contiguous(), b)");
  matmul.candidates.push_back(
      candidate("a", fasterMatmul, {recorded("default", 1.5), recorded("cuda_graph", 1.2)}));
  matmul.candidates.push_back(candidate("b", std::string(kMatmulReference), {recorded("default", 0.8)}));
  matmul.baselinePrograms.emplace_back("cuda_graph",
                                       std::string(kMatmulReference) + "# captured in a graph\n");
  run.tasks.push_back(matmul);

  Task relu = task(1, 2, "2_ReLU", "import torch\n\ndef forward(x):\n    return torch.relu(x)\n");
  relu.candidates.push_back(
      candidate("c", std::string("import torch\n\ndef forward(x):\n    return x.clamp_min(0)\n"),
                {recorded("default", 3.0)}));
  relu.candidates.back().analysis =
      "## Why it is faster\n\n`clamp_min` fuses the comparison and the select.\n";
  run.tasks.push_back(relu);

  Task conv = task(2, 5, "5_Conv2d_ReLU", "import torch\n");
  conv.candidates.push_back(candidate("d", std::nullopt, {}));
  run.tasks.push_back(conv);

  Task scale = task(2, 9, "9_Matmul_scale", kScaleReference);
  scale.candidates.push_back(candidate("e", std::string(kScaleCandidate), {recorded("default", 17.0)}));
  run.tasks.push_back(scale);

  run.tasks.push_back(task(3, 7, "7_MLP", "import torch\n"));

  Flag flag;
  flag.family = "extra-stream";
  flag.severity = FlagSeverity::Hack;
  flag.confidence = 0.9;
  flag.message = "The kernel runs on a stream it creates, outside the timed stream.";
  flag.lines = {lineContaining(kScaleCandidate, "scale_kernel<<<"),
                lineContaining(kScaleCandidate, "cudaStreamCreate")};
  std::vector<std::vector<Flag>> flags(6);
  flags[kRowE] = {flag};
  return std::make_shared<const LoadedRun>(std::move(run), std::move(flags));
}

std::shared_ptr<const LoadedRun> largeRun(int candidates) {
  RunFile run;
  run.path = "/tmp/large-run.jsonl";
  const int perTask = 10;
  for (int t = 0; t < candidates / perTask; ++t) {
    Task tk = task(1 + t % 3, t, std::to_string(t) + (t % 7 == 0 ? "_Matmul_kernel" : "_Elementwise_op"), "");
    for (int c = 0; c < perTask; ++c) {
      const double speedup = std::exp2(std::sin(t * 0.37 + c) * 4.0);
      tk.candidates.push_back(
          candidate("r" + std::to_string(c), std::string("pass\n"), {recorded("default", speedup)}));
      tk.candidates.back().step = c;
    }
    run.tasks.push_back(std::move(tk));
  }
  std::vector<std::vector<Flag>> flags(static_cast<std::size_t>(candidates));
  for (std::size_t r = 0; r < flags.size(); r += 13) {
    Flag f;
    f.family = r % 2 ? "extra-stream" : "cached-output";
    f.severity = FlagSeverity::Suspicious;
    flags[r] = {f};
  }
  return std::make_shared<const LoadedRun>(std::move(run), std::move(flags));
}

std::int64_t nextResultId() {
  static std::int64_t next = 1;
  return next++;
}

runs::MeasuredRun timedRun(double speedup, const std::string& hash,
                           std::vector<protocol::RuntimeFlag> flags) {
  runs::MeasuredRun run;
  run.row.id = nextResultId();
  run.row.recordedAt = "2026-05-04T10:03:00.000Z";
  run.row.codeHash = hash;
  run.row.device = "AMD EPYC";
  run.row.outcome = "correct";
  run.row.passed = true;
  run.row.speedup = speedup;
  run.row.origin = "kernelscope";
  protocol::EvaluateResult r;
  r.device = "cpu";
  r.correctness.passed = true;
  r.correctness.seeds = {{.seed = 42, .passed = true, .maxAbsErr = 2e-6}};
  r.timing = protocol::Timing{.clock = "wall", .trials = 2, .speedup = speedup};
  r.timing->candidate.cv = 0.031;
  r.timing->candidate.clockGapMs = 0.02;
  r.runtimeFlags = std::move(flags);
  run.result = r;
  return run;
}

}  // namespace ks::test
