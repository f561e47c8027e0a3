#pragma once
// The nvcc -arch of this machine's first GPU ("sm_90"), asked of nvidia-smi; empty with a reason when there
// is no GPU or no driver.
#include <string>

namespace ks::nvcc {

struct GpuArch {
  std::string arch;   // "sm_90"
  std::string error;  // why it is unknown
};

GpuArch detectGpuArch();

}  // namespace ks::nvcc
