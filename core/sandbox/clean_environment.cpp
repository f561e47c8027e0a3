#include "core/sandbox/clean_environment.h"

#include <algorithm>
#include <array>

namespace ks::sandbox {
namespace {

// Read by the runner (KSCOPE_*), the embedded Python (PYTHON*), torch's extension builds and nvcc (CUDA_*,
// TORCH_*, CXX, CC, NVCC_*), the CUDA driver and runtime (CUDA_*, NVIDIA_*), libraries' thread pools
// (OMP_*, MKL_*), the C library (LANG, LC_*, TZ) and the dynamic loader (LD_LIBRARY_PATH).
using namespace std::string_view_literals;
constexpr std::array kExact = {
    "PATH"sv,
    "HOME"sv,
    "USER"sv,
    "LOGNAME"sv,
    "LANG"sv,
    "LANGUAGE"sv,
    "TERM"sv,
    "TZ"sv,
    "KSCOPE_PYTHON"sv,
    "KSCOPE_WRITABLE"sv,
    "KSCOPE_CONTAINMENT"sv,
    "KSCOPE_PROCESSES"sv,
    "KSCOPE_FILE_SIZE_MIB"sv,
    "KSCOPE_CACHE_QUOTA_MIB"sv,
    "PYTHONPATH"sv,
    "PYTHONHOME"sv,
    "LD_LIBRARY_PATH"sv,
    "CUTLASS_DIR"sv,
    "CXX"sv,
    "CC"sv,
    "XDG_CACHE_HOME"sv,
};
constexpr std::array kPrefixes = {"LC_"sv,   "CUDA_"sv,   "NVIDIA_"sv, "TORCH_"sv, "PYTORCH_"sv,
                                  "NVCC_"sv, "CUBLAS_"sv, "CUDNN_"sv,  "OMP_"sv,   "MKL_"sv};
// Never passed, whatever prefix lets them in: names that hold credentials.
constexpr std::array kSecretParts = {"TOKEN"sv,      "SECRET"sv,  "PASSWORD"sv,   "PASSWD"sv,
                                     "CREDENTIAL"sv, "API_KEY"sv, "PRIVATE_KEY"sv};

bool contains(std::string_view name, std::string_view part) {
  return name.find(part) != std::string_view::npos;
}

}  // namespace

bool passedToRunner(std::string_view name) {
  if (name.empty()) return false;
  for (std::string_view part : kSecretParts)
    if (contains(name, part)) return false;
  if (std::find(kExact.begin(), kExact.end(), name) != kExact.end()) return true;
  return std::any_of(kPrefixes.begin(), kPrefixes.end(),
                     [&](std::string_view prefix) { return name.substr(0, prefix.size()) == prefix; });
}

EnvironmentList cleanEnvironment(char** entries) {
  EnvironmentList out;
  for (char** e = entries; e && *e; ++e) {
    const std::string_view entry(*e);
    const std::size_t eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view name = entry.substr(0, eq);
    if (passedToRunner(name)) out.emplace_back(std::string(name), std::string(entry.substr(eq + 1)));
  }
  return out;
}

void setVariable(EnvironmentList& base, const std::string& name, const std::string& value) {
  for (auto& [k, v] : base)
    if (k == name) {
      v = value;
      return;
    }
  base.emplace_back(name, value);
}

}  // namespace ks::sandbox
