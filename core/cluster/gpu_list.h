#pragma once
// The GPUs of `kscope batch --gpus all|0,1,...`: one timing runner per GPU, each seeing only its own
// (CUDA_VISIBLE_DEVICES=<id>).
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ks::cluster {

struct GpuList {
  std::vector<std::string> ids;  // what each runner's CUDA_VISIBLE_DEVICES is set to
  std::string source;            // where the list came from, for the progress line
  std::string error;             // why there is none (then ids is empty)
};

// "0,1,3": those ids (numbers or GPU UUIDs, no repeats). "all": $KSCOPE_GPU_LIST when set (a fake device
// list, for tests on a machine without GPUs), else $CUDA_VISIBLE_DEVICES when set (the GPUs this process
// may use), else one id per entry of `nvidiaProc` (the driver's /proc/driver/nvidia/gpus: 0..n-1).
GpuList gpuList(std::string_view spec, const std::function<const char*(const char*)>& getenv,
                const std::filesystem::path& nvidiaProc = "/proc/driver/nvidia/gpus");

// What a per-GPU runner's environment adds: CUDA_VISIBLE_DEVICES=<id>, so that it sees that GPU alone (CUDA
// numbers it 0). The CLI's pool and the GUI's runners both set it here.
std::vector<std::pair<std::string, std::string>> gpuRunnerEnvironment(const std::string& id);

// The timing runners of the GUI's re-runs: `spec` as gpuList reads it, "all" when empty. Where "all" finds no
// GPU that is no error: one runner that sees what this process sees (ids {""}, source says why). An explicit
// list that does not read keeps its error, and ids is empty.
GpuList gpuRunners(std::string_view spec, const std::function<const char*(const char*)>& getenv,
                   const std::filesystem::path& nvidiaProc = "/proc/driver/nvidia/gpus");

}  // namespace ks::cluster
