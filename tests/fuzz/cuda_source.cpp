// Fuzz target: the native .cu kernel reader (readCudaSource, with its `// kscope:` header parser) on a .cu
// file holding the input's bytes.
#include "core/formats/cuda_source_reader.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = ks::fuzz::writeFile("kernel.cu", ks::fuzz::bytes(data, size));
  const ks::RunFile run = ks::readCudaSource(path);
  (void)run.candidateCount();
  return 0;
}
