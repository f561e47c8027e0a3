#include "core/nvcc/gpu_arch.h"

#include <regex>

#include "core/nvcc/process_run.h"

namespace ks::nvcc {

GpuArch detectGpuArch() {
  ProcessOutput out = runProcess(
      {.argv = {"nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"}, .deadlineSeconds = 30});
  if (!out.succeeded()) return {"", "nvidia-smi " + out.describeEnd()};
  static const std::regex kCap(R"(^\s*(\d+)\.(\d+))");
  std::smatch m;
  if (!std::regex_search(out.output, m, kCap)) return {"", "nvidia-smi printed no compute capability"};
  return {"sm_" + m[1].str() + m[2].str(), ""};
}

std::string nativeBuildArch(int major, int minor) {
  std::string arch = "sm_" + std::to_string(major) + std::to_string(minor);
  if (major == 9 && minor == 0) arch += "a";
  return arch;
}

std::string targetArch(const std::string& requested, const std::string& fallback) {
  if (!requested.empty()) return requested;
  const GpuArch local = detectGpuArch();
  return local.arch.empty() ? fallback : local.arch;
}

}  // namespace ks::nvcc
