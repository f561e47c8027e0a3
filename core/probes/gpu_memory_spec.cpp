#include "core/probes/gpu_memory_spec.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace ks::engine {
namespace {

constexpr double kTB = 1e12, kMB = 1e6;

bool has(const std::string& name, std::string_view part) { return name.find(part) != std::string::npos; }

}  // namespace

std::optional<GpuMemorySpec> gpuMemorySpec(std::string_view deviceName) {
  std::string name(deviceName);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::toupper(c); });
  // Superchips and NVL boards share the marketing name and differ in memory: not in the table.
  if (has(name, "GH200") || has(name, "GB200") || has(name, "NVL")) return std::nullopt;
  if (has(name, "H200")) return GpuMemorySpec{"H200 SXM", 4.8 * kTB, 60 * kMB};
  if (has(name, "H100") && has(name, "PCIE")) return GpuMemorySpec{"H100 PCIe", 2.0 * kTB, 50 * kMB};
  if (has(name, "H100") && (has(name, "HBM3") || has(name, "SXM")))
    return GpuMemorySpec{"H100 SXM", 3.35 * kTB, 50 * kMB};
  // The A100 80GB PCIe (1.935 TB/s) gets the SXM figure: a higher bandwidth only lowers the floor.
  if (has(name, "A100") && has(name, "80GB")) return GpuMemorySpec{"A100 80GB", 2.039 * kTB, 40 * kMB};
  if (has(name, "A100")) return GpuMemorySpec{"A100 40GB", 1.555 * kTB, 40 * kMB};
  if (has(name, "L40S")) return GpuMemorySpec{"L40S", 0.864 * kTB, 96 * kMB};
  if (has(name, "RTX 4090")) return GpuMemorySpec{"RTX 4090", 1.008 * kTB, 72 * kMB};
  if (has(name, "V100")) return GpuMemorySpec{"V100", 0.9 * kTB, 6 * kMB};
  return std::nullopt;
}

}  // namespace ks::engine
