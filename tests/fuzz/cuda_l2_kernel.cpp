// Fuzz target: a CUDA-L2 kernel file opened on its own (readCudaL2 on kernels/<gpu>_<ACC>/M_N_K.cu, with a
// one-row speedup table two levels up), and the reading of a GEMM kernel's tile configuration and entry
// (gemm_tile_config.h) that a re-run applies to the kernel's source, on the raw bytes.
#include "core/formats/cuda_l2_reader.h"
#include "core/formats/gemm_tile_config.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const bool table = [] {
    ks::fuzz::writeFile("l2/eval_results/cuda_l2_h100_F32F16F16F32_speedup_offline.csv",
                        "mnk,torch.matmul,cuBLAS-tn\n64_64_64,1.5,0.9\n");
    return true;
  }();
  (void)table;
  const std::string_view source = ks::fuzz::bytes(data, size);
  const auto path = ks::fuzz::writeFile("l2/kernels/h100_F32F16F16F32/64_64_64.cu", source);
  const ks::RunFile run = ks::readCudaL2(path);
  (void)run.candidateCount();
  const ks::TileConfig config = ks::parseGemmTileConfig(source);
  (void)ks::gemmBlockTile(config);
  (void)ks::gemmOutEntry(source);
  return 0;
}
