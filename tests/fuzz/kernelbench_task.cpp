// Fuzz target: the KernelBench folder reader (readKernelBenchFolder) on a level folder whose one task file
// holds the input's bytes (the same text reading good-kernels uses for ref.py and src.py).
#include "core/formats/kernelbench_reader.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ks::fuzz::writeFile("kb/level1/19_ReLU.py", ks::fuzz::bytes(data, size));
  const ks::RunFile run = ks::readKernelBenchFolder(ks::fuzz::scratch() / "kb");
  (void)run.candidateCount();
  return 0;
}
