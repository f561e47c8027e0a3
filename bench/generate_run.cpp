// generate_run N OUT [TASKS]: writes a deterministic kscope run file with N candidates of realistic size (2-4
// KB of code each, a markdown analysis, lineage and two measurements) over TASKS KernelBench-like tasks
// (default 250; 1 makes one search of N candidates, for the Search tab).
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

#include "core/formats/run_format.h"

namespace {

int taskCount = 250;  // set from the command line

// splitmix64: the same sequence on every platform and compiler (std:: distributions are not).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int between(int lo, int hi) {
    return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  double unit() { return static_cast<double>(next() >> 11) / static_cast<double>(1ull << 53); }

 private:
  std::uint64_t state_;
};

const char* const kCudaLines[] = {
    "    const int idx = blockIdx.x * blockDim.x + threadIdx.x;\n",
    "    if (idx >= n) return;\n",
    "    float acc = 0.0f;\n",
    "    #pragma unroll\n",
    "    for (int k = 0; k < TILE_K; ++k) acc += As[ty][k] * Bs[k][tx];\n",
    "    __syncthreads();\n",
    "    out[idx] = fmaxf(acc * scale + bias[idx % channels], 0.0f);\n",
    "    float4 v = reinterpret_cast<const float4*>(x)[idx];\n",
    "    v.x = v.x * w; v.y = v.y * w; v.z = v.z * w; v.w = v.w * w;\n",
    "    sum += __shfl_down_sync(0xffffffff, sum, offset);\n",
    "    if (threadIdx.x % 32 == 0) atomicAdd(&partial[blockIdx.x], sum);\n",
    "    const half2 h = __floats2half2_rn(a, b);\n",
    "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\\n\" :: \"r\"(dst), \"l\"(src));\n",
};

std::string kernelCode(Random& random, int task, int index) {
  const int target = random.between(2000, 4000);
  std::string code =
      "import torch\nimport torch.nn as nn\nfrom torch.utils.cpp_extension import load_inline\n\n"
      "cuda_source = r\"\"\"\n#include <torch/extension.h>\n#include <cuda_fp16.h>\n\n"
      "#define TILE_K " +
      std::to_string(8 << random.between(0, 3)) +
      "\n\n"
      "__global__ void fused_kernel_" +
      std::to_string(task) + "_" + std::to_string(index) +
      "(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ out, int n, int "
      "channels, "
      "float scale) {\n";
  const std::size_t lines = std::size(kCudaLines);
  while (code.size() < static_cast<std::size_t>(target) - 420) code += kCudaLines[random.next() % lines];
  code +=
      "}\n\ntorch::Tensor forward(torch::Tensor x, torch::Tensor bias, double scale) {\n"
      "    auto out = torch::empty_like(x);\n    const int threads = " +
      std::to_string(64 << random.between(0, 4)) +
      ";\n    fused_kernel<<<(x.numel() + threads - 1) / threads, threads>>>(x.data_ptr<float>(), "
      "bias.data_ptr<float>(), out.data_ptr<float>(), x.numel(), x.size(1), scale);\n    return "
      "out;\n}\n\"\"\"\n\n"
      "module = load_inline(name=\"fused\", cpp_sources=\"\", cuda_sources=cuda_source, "
      "functions=[\"forward\"])\n\n"
      "class ModelNew(nn.Module):\n    def forward(self, x):\n        return module.forward(x, self.bias, "
      "0.5)\n";
  return code;
}

std::string analysis(Random& random, double speedup) {
  std::string text =
      "## Why it is faster\n\nThe candidate fuses the elementwise tail into the GEMM epilogue, so the "
      "intermediate never goes back to HBM. Measured " +
      std::to_string(speedup) + "x.\n\n";
  const int points = random.between(2, 6);
  for (int i = 0; i < points; ++i)
    text += "- Tile " + std::to_string(16 << random.between(0, 3)) + "x" +
            std::to_string(16 << random.between(0, 3)) +
            " keeps the working set in shared memory; occupancy " + std::to_string(random.between(25, 100)) +
            "%, `cp.async` double buffering hides global-memory latency.\n";
  return text;
}

ks::RunFile generate(int candidates) {
  Random random(0x6B73636F7065ull);  // "kscope"
  ks::RunFile run;
  run.title = "Generated benchmark run (" + std::to_string(candidates) + " candidates)";
  run.description = "Synthetic, deterministic: bench/generate_run.cpp.";
  for (int t = 0; t < taskCount; ++t) {
    ks::Task& task = run.tasks.emplace_back();
    task.level = 1 + t * 3 / taskCount;
    task.number = 1 + t % 100;
    task.name = std::to_string(task.number) + "_Generated_task";
    task.referenceCode =
        "import torch\nimport torch.nn as nn\n\nclass Model(nn.Module):\n    \"\"\"Generated task " +
        std::to_string(t) + ".\"\"\"\n" +
        std::string(static_cast<std::size_t>(random.between(600, 1800)), '#') + "\n";
  }
  for (int c = 0; c < candidates; ++c) {
    ks::Task& task = run.tasks[static_cast<std::size_t>(c % taskCount)];
    const int index = static_cast<int>(task.candidates.size());
    ks::Candidate& candidate = task.candidates.emplace_back();
    candidate.id = "r" + std::to_string(index);
    if (index > 0) candidate.parents.push_back("r" + std::to_string(random.between(0, index - 1)));
    candidate.step = index / 8;
    const double speedup = 0.3 + 4.0 * random.unit() * random.unit();
    candidate.code = kernelCode(random, c % taskCount, index);
    candidate.analysis = analysis(random, speedup);
    ks::Measurement m;
    m.speedup = speedup;
    m.baselineMs = 0.05 + random.unit() * 20;
    m.candidateMs = *m.baselineMs / speedup;
    m.device = "NVIDIA H100 80GB HBM3";
    m.when = "2026-11-20T08:00:00Z";
    candidate.measurements.push_back(m);
    m.baseline = "torch_compile_default";
    m.speedup = speedup * (0.5 + random.unit());
    candidate.measurements.push_back(m);
  }
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  int candidates = 0;
  const auto number = [](const char* text, int& out) {
    return std::from_chars(text, text + std::char_traits<char>::length(text), out).ec == std::errc();
  };
  if ((argc != 3 && argc != 4) || !number(argv[1], candidates) || candidates < 0 ||
      (argc == 4 && (!number(argv[3], taskCount) || taskCount < 1))) {
    std::cerr << "usage: generate_run N OUT.jsonl [TASKS]   (N candidates over TASKS tasks, default 250, "
                 "written as a kscope run file)\n";
    return 2;
  }
  std::string error;
  if (!ks::writeRunFile(generate(candidates), argv[2], &error)) {
    std::cerr << "generate_run: " << error << "\n";
    return 1;
  }
  return 0;
}
