#pragma once
// Peak memory bandwidth and L2 size of the GPUs the physical floor knows (docs/hacks.md, "Physical floor"),
// looked up by the name CUDA reports. Unknown GPUs have no floor: a wrong bandwidth would make honest times
// look impossible.
#include <optional>
#include <string_view>

namespace ks::engine {

struct GpuMemorySpec {
  std::string_view gpu;  // the table's name for it: "H100 SXM"
  double bandwidthBytesPerS = 0;
  double l2Bytes = 0;
};

// "NVIDIA H100 80GB HBM3" -> H100 SXM; nullopt for a GPU not in the table (or a CPU).
std::optional<GpuMemorySpec> gpuMemorySpec(std::string_view deviceName);

}  // namespace ks::engine
