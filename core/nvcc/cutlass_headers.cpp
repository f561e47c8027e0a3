#include "core/nvcc/cutlass_headers.h"

#include <cstdlib>
#include <regex>

namespace ks::nvcc {

CutlassHeaders findCutlassHeaders(const std::string& cutlassDir) {
  CutlassHeaders h;
  const std::string needs = "this kernel includes CuTe/CUTLASS headers: set " + std::string(kCutlassDirVariable) +
                            " to a CUTLASS checkout (4.x; the folder holding include/cute/tensor.hpp)";
  if (cutlassDir.empty()) {
    h.error = needs + "; " + kCutlassDirVariable + " is not set";
    return h;
  }
  const std::filesystem::path root(cutlassDir);
  const std::filesystem::path probe = root / "include" / "cute" / "tensor.hpp";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(probe, ec)) {
    h.error = needs + "; looked for " + probe.string() + " ($" + kCutlassDirVariable +
              "/include/cute/tensor.hpp), which is not there";
    return h;
  }
  h.includeDirs.push_back(root / "include");
  if (std::filesystem::is_directory(root / "tools" / "util" / "include", ec))
    h.includeDirs.push_back(root / "tools" / "util" / "include");
  return h;
}

CutlassHeaders findCutlassHeadersFromEnvironment() {
  const char* dir = std::getenv(kCutlassDirVariable);
  return findCutlassHeaders(dir ? dir : "");
}

void addCutlassToBuild(BuildOptions& options, const CutlassHeaders& headers) {
  options.includeDirs.insert(options.includeDirs.end(), headers.includeDirs.begin(), headers.includeDirs.end());
  options.extraFlags.push_back("--expt-extended-lambda");
  // CUDA-L2 builds its kernels (the CUTLASS kernels KernelScope opens) with fast math (its tools/utils.py),
  // so the kernel timed here is the kernel its authors timed (docs/method-fidelity.md).
  options.extraFlags.push_back("--use_fast_math");
  // torch's extension flags (build_options.cpp) forbid half's implicit conversions and operators; CuTe's
  // copy of float accumulators into half output needs them (9 of 20 sampled CUDA-L2 kernels failed with
  // "no suitable constructor exists to convert from float to __half" on the H100 machine). CUTLASS-based
  // torch extensions undefine them again; appended after torch's -D flags, these win. They decide which
  // conversions compile, not what a kernel computes.
  for (const char* flag : {"-U__CUDA_NO_HALF_OPERATORS__", "-U__CUDA_NO_HALF_CONVERSIONS__",
                           "-U__CUDA_NO_BFLOAT16_CONVERSIONS__", "-U__CUDA_NO_HALF2_OPERATORS__"})
    options.extraFlags.push_back(flag);
}

bool includesCutlass(std::string_view source) {
  static const std::regex kInclude(R"(^[ \t]*#[ \t]*include[ \t]*[<"](cute|cutlass)/)");
  std::size_t start = 0;
  while (start < source.size()) {
    std::size_t end = source.find('\n', start);
    if (end == std::string_view::npos) end = source.size();
    const std::string line(source.substr(start, end - start));
    if (line.find("include") != std::string::npos && std::regex_search(line, kInclude)) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace ks::nvcc
