// Fuzz target: the CUDA-L2 release reader (readCudaL2) on a release whose offline speedup table holds the
// input's bytes, beside two small kernels.
#include "core/formats/cuda_l2_reader.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool kernels = [] {
    ks::fuzz::writeFile("l2/kernels/h100_F32F16F16F32/64_64_64.cu", "// kernel 64_64_64\n");
    ks::fuzz::writeFile("l2/kernels/h100_F32F16F16F32/128_64_256.cu", "// kernel 128_64_256\n");
    return true;
  }();
  (void)kernels;
  ks::fuzz::writeFile("l2/eval_results/cuda_l2_h100_F32F16F16F32_speedup_offline.csv", ks::fuzz::bytes(data, size));
  const ks::RunFile run = ks::readCudaL2(ks::fuzz::scratch() / "l2");
  (void)run.candidateCount();
  return 0;
}
