#include "views/logic/gpu_ceilings.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ks {
namespace {

const std::array<GpuCeilings, 3> kTable{{
    // H100 SXM 80GB: what the project's device machine reaches, since the points are times taken on it —
    // 3.0 TB/s counting bytes read and written by a copy (docs/hacks.md, "impossible-time"), ~800 TFLOP/s
    // dense 16-bit GEMM. Re-measured on it on 2026-11-25 with torch 16-bit matmul, fp32 accumulation
    // (reduced-precision reduction off), CUDA events: copying 1 GiB 3.01 TB/s; 4096³ 748,
    // 8192³ 754, 16384³ 680 TFLOP/s — cuBLAS's best stays under the 800 ceiling, which a faster kernel may
    // approach. The datasheet (NVIDIA H100 Tensor Core GPU, SXM column) says 3.35 TB/s and 989 TFLOP/s.
    {"h100", "H100 SXM 80GB", 3.0, 800.0, 800.0,
     "measured on our H100: ~3.0 TB/s copy, ~800 TFLOP/s dense 16-bit (datasheet: 3.35 TB/s, 989 TFLOP/s)"},
    // A100: NVIDIA A100 Tensor Core GPU datasheet, A100 80GB SXM column: 2,039 GB/s HBM2e, 312 TFLOP/s
    // fp16/bf16 tensor dense (624 is with structured sparsity). Data-centre parts accumulate fp16 products
    // in fp32 at the full rate.
    {"a100", "A100 SXM 80GB", 2.039, 312.0, 312.0,
     "NVIDIA A100 datasheet (80GB SXM): 2.039 TB/s, 312 TFLOP/s fp16 tensor dense"},
    // RTX 3090: NVIDIA Ampere GA102 GPU architecture whitepaper, Table 9 (GeForce RTX 3090): 936 GB/s GDDR6X;
    // peak fp16 tensor TFLOPS with fp16 accumulate 142 dense (285 sparse), with fp32 accumulate 71 dense —
    // GeForce parts run fp32 accumulation at half rate. CUDA-L2's F32F16F16F32 accumulates in fp32: 71.
    {"3090", "GeForce RTX 3090", 0.936, 71.0, 142.0,
     "NVIDIA GA102 whitepaper: 936 GB/s; fp16 tensor dense 71 TFLOP/s with fp32 accumulate, 142 with fp16"},
}};

std::string lower(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

double GpuCeilings::attainableTflops(double intensity, const std::string& accumulatorType) const {
  return std::min(tensorTflops(accumulatorType), bandwidthTBs * intensity);
}

const GpuCeilings* gpuCeilings(std::string_view gpu) {
  const std::string name = lower(gpu);
  for (const GpuCeilings& c : kTable)
    if (name == c.gpu) return &c;
  for (const GpuCeilings& c : kTable)  // a device name: "NVIDIA H100 80GB HBM3", "NVIDIA GeForce RTX 3090"
    if (name.find(c.gpu) != std::string::npos) return &c;
  return nullptr;
}

}  // namespace ks
