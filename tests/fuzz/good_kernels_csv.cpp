// Fuzz target: the good-kernels reader (readGoodKernels) on a task folder whose results.csv holds the
// input's bytes.
#include "core/formats/good_kernels_reader.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool sources = [] {
    ks::fuzz::writeFile("gk/LayerNorm/ref.py", "class Model:\n    pass\n");
    ks::fuzz::writeFile("gk/LayerNorm/src.py", "class ModelNew:\n    pass\n");
    return true;
  }();
  (void)sources;
  ks::fuzz::writeFile("gk/LayerNorm/results.csv", ks::fuzz::bytes(data, size));
  const ks::RunFile run = ks::readGoodKernels(ks::fuzz::scratch() / "gk");
  (void)run.candidateCount();
  return 0;
}
