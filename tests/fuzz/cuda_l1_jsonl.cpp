// Fuzz target: the CUDA-L1 release reader (readCudaL1) on a JSONL file holding the input's bytes.
#include "core/formats/cuda_l1_reader.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = ks::fuzz::writeFile("h100.jsonl", ks::fuzz::bytes(data, size));
  const ks::RunFile run = ks::readCudaL1(path);
  (void)run.candidateCount();
  return 0;
}
