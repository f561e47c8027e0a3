#pragma once
// The tile configuration a GEMM kernel's CUDA source spells out (CUDA-L2's CuTe / CUTLASS kernels): block
// tile sizes, pipeline stages, shared-memory and block swizzles, the MMA instruction, the cluster shape and
// the CUTLASS schedule, each with the line it was read from. A reading of the text, not of the compiled
// program: a kernel that picks among several configurations at run time lists each one it writes down, and
// a value built by a macro (`cute::_##TM`) is reported as written, without a number.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

struct TileParameter {
  // One of: "BM", "BN", "BK" (the block tile, from BM = Int<128>{}, constexpr int BK = 32, TileShape, ...),
  // "stages" (kStage, Stages, StageCount<4>, bP, ...), "swizzle" (Swizzle<3,3,3>, GMMA SW128 layouts),
  // "block_swizzle" (true/false), "swizzle_stride", "mma" (SM80_16x8x16_F16F16F16F16_TN, wmma 16x16x16,
  // mma.sync m16n8k16), "accumulator" (ElementAccumulator, the wmma accumulator type), "cluster" (2x1x1),
  // "schedule" (KernelTmaWarpSpecializedCooperative, ...), "tile_scheduler", "entry" (the torch entry point).
  std::string name;
  std::string value;                   // as written, whitespace squeezed: "128", "Swizzle<3,3,3>", "TM"
  std::optional<std::int64_t> number;  // when the value is an integer literal
  std::string spelling;                // the name in the source: "kStage", "bK", "TileShape", ...
  int line = 0;                        // 1-based
};

struct TileConfig {
  // In source order; a (name, value) pair is listed once, at its first line.
  std::vector<TileParameter> parameters;

  // The first parameter named `name`, or nullptr.
  const TileParameter* find(std::string_view name) const;
  // Every distinct value of `name`, in source order.
  std::vector<const TileParameter*> all(std::string_view name) const;
};

// Reads the tile configuration out of a CUDA C++ source. Comments are skipped, and so are lines longer than
// 1024 characters (no tile is declared on one; reading them could exhaust the stack). Never throws.
TileConfig parseGemmTileConfig(std::string_view source);

// The out-parameter GEMM entry of a kernel source: the last function declared `void name(T a, T b, T
// b_col_major, T c)` with four torch::Tensor / at::Tensor parameters (by value or const reference; any
// parameter names, over several lines) — CUDA-L2's `cuda_l2_h100_fp32`. nullopt when there is none.
std::optional<std::string> gemmOutEntry(std::string_view source);

// The block tile {BM, BN, BK} a GEMM's inputs are padded to: per extent the least common multiple of every
// integer value the source gives it (a kernel choosing among tiles at run time gets a padding that suits
// each). nullopt when one of the three has no integer value (not written down, or built by a macro), or
// when their least common multiple does not fit in 64 bits.
std::optional<std::vector<std::int64_t>> gemmBlockTile(const TileConfig& config);

}  // namespace ks
