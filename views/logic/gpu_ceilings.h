#pragma once
// The roofline ceilings of the GPUs GEMM releases target (GemmShape::gpu: "h100", "a100", "3090"): memory
// bandwidth and dense 16-bit tensor-core throughput, one table for every view (the roofline chart and its
// tests). Each number says where it comes from in gpu_ceilings.cpp.
#include <string>
#include <string_view>

namespace ks {

struct GpuCeilings {
  std::string gpu;                 // as GemmShape::gpu names it: "h100"
  std::string name;                // for a person: "H100 SXM 80GB"
  double bandwidthTBs = 0;         // DRAM bandwidth, TB/s (10^12 bytes per second)
  double tensorFp32AccTflops = 0;  // dense fp16/bf16 tensor-core multiply, fp32 accumulate, TFLOP/s
  double tensorFp16AccTflops = 0;  // ... fp16 accumulate (the same on data-centre parts, twice on GeForce)
  std::string source;              // where the numbers come from, one line for the chart's tooltip

  // The tensor ceiling for an accumulator type ("fp16": the fp16-accumulate rate; anything else: fp32's).
  double tensorTflops(const std::string& accumulatorType) const {
    return accumulatorType == "fp16" ? tensorFp16AccTflops : tensorFp32AccTflops;
  }
  // Attainable TFLOP/s at `intensity` FLOP/byte: min(tensor ceiling, bandwidth × intensity).
  double attainableTflops(double intensity, const std::string& accumulatorType) const;
  // The intensity where the bandwidth roof meets the tensor ceiling (FLOP/byte).
  double ridge(const std::string& accumulatorType) const {
    return tensorTflops(accumulatorType) / bandwidthTBs;
  }
};

// The ceilings of `gpu` (case-insensitive GemmShape::gpu; also a device name such as "NVIDIA H100 80GB
// HBM3"); nullptr for a GPU the table does not list.
const GpuCeilings* gpuCeilings(std::string_view gpu);

}  // namespace ks
