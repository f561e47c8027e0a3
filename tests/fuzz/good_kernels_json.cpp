// Fuzz target: the good-kernels reader (readGoodKernels) on a task folder whose results.json holds the
// input's bytes.
#include "core/formats/good_kernels_reader.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool sources = [] {
    ks::fuzz::writeFile("gk/Softmax/ref.py", "class Model:\n    pass\n");
    ks::fuzz::writeFile("gk/Softmax/src.py", "class ModelNew:\n    pass\n");
    return true;
  }();
  (void)sources;
  ks::fuzz::writeFile("gk/Softmax/results.json", ks::fuzz::bytes(data, size));
  const ks::RunFile run = ks::readGoodKernels(ks::fuzz::scratch() / "gk/Softmax");
  (void)run.candidateCount();
  return 0;
}
