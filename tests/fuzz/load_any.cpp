// Fuzz target: format detection and dispatch (loadAny) on a file without a telling extension holding the
// input's bytes: the first line decides between CUDA-L1, the run format and "unknown" (whose problem text
// sniffs the start for binary content).
#include "core/formats/load.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = ks::fuzz::writeFile("input", ks::fuzz::bytes(data, size));
  const ks::RunFile run = ks::loadAny(path);
  (void)run.candidateCount();
  return 0;
}
