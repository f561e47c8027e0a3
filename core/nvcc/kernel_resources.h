#pragma once
// What ptxas reported for one kernel (an entry function) on one architecture, from `nvcc -Xptxas -v`.
#include <string>
#include <vector>

namespace ks::nvcc {

struct KernelResources {
  std::string name;         // demangled ("heavy(float*, float const*, int)"); extern "C" names as they are
  std::string mangledName;  // the symbol ptxas printed
  std::string arch;         // "sm_90"
  int registers = 0;
  int barriers = 0;
  int sharedBytes = 0;    // static shared memory ("bytes smem")
  int constantBytes = 0;  // the sum of "bytes cmem[N]" on the kernel's line (parameters, constants)
  int stackBytes = 0;     // stack frame
  int spillStores = 0;    // bytes
  int spillLoads = 0;     // bytes
};

// Entry functions in the order ptxas compiled them; device (non-entry) functions are left out.
std::vector<KernelResources> parsePtxasResources(const std::string& compilerOutput);

}  // namespace ks::nvcc
