#pragma once
// Whose kernels a profiled candidate call ran (docs/hacks.md, no-custom-kernel and fallback-to-reference):
// the __global__ functions its program declares against the kernel names in its profile, and whether it
// built any extension at all.
#include <string>
#include <vector>

#include "core/probes/probe_evidence.h"

namespace ks::engine {

// The names of the __global__ functions declared in `code` (CUDA sources embedded in a Python program, or a
// .cu file), in order of appearance.
std::vector<std::string> declaredKernels(const std::string& code);

// Kernel names by arithmetic: TF32 tensor-core kernels, and 16-bit ones (not counting TF32 kernels).
bool tf32KernelName(const std::string& name);
bool halfKernelName(const std::string& name);

KernelOriginEvidence kernelOrigin(const protocol::BuildReport& build,
                                  const std::vector<protocol::KernelLaunch>& kernels,
                                  const std::string& code);

}  // namespace ks::engine
