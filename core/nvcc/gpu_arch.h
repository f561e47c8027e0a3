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

// The nvcc -arch a native build targets on a GPU of compute capability major.minor: "sm_<major><minor>",
// with the `a` suffix on 9.0 ("sm_90a"), whose architecture-specific features (wgmma, TMA, setmaxnreg) CuTe
// and CUTLASS kernels use when compiled for it; sm_90a code runs on sm_90 GPUs only, which is where it is
// built to run. The one place this rule lives.
std::string nativeBuildArch(int major, int minor);

// The architecture a build or a repair targets: `requested` when given, else this machine's GPU's, else
// `fallback` (no GPU: CI, a laptop). Used by kscope's --arch and the GUI's Repair and Compile.
std::string targetArch(const std::string& requested, const std::string& fallback = "sm_90a");

}  // namespace ks::nvcc
