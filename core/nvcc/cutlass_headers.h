#pragma once
// Where CUTLASS's headers (CuTe included) are, for native kernels that include them (CUDA-L2's HGEMM
// kernels). CUTLASS_DIR names a CUTLASS checkout or header tree, the convention CUDA-L2 itself uses; the
// headers are $CUTLASS_DIR/include (cute/, cutlass/) and, when present, $CUTLASS_DIR/tools/util/include.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/nvcc/build_options.h"

namespace ks::nvcc {

inline constexpr char kCutlassDirVariable[] = "CUTLASS_DIR";

struct CutlassHeaders {
  std::vector<std::filesystem::path> includeDirs;
  std::string error;  // empty when found: otherwise which variable, and which paths were looked for
  bool found() const { return error.empty(); }
};

// `cutlassDir` is the value of CUTLASS_DIR (empty when unset). Found when <dir>/include/cute/tensor.hpp
// exists.
CutlassHeaders findCutlassHeaders(const std::string& cutlassDir);

// findCutlassHeaders(getenv("CUTLASS_DIR")).
CutlassHeaders findCutlassHeadersFromEnvironment();

// What a build of a source that includes CUTLASS gets: its include folders, and the one nvcc flag CUDA-L2's
// own builds add to torch's (--expt-extended-lambda; torch's flags already carry -std=c++17 and
// --expt-relaxed-constexpr, which CuTe needs).
void addCutlassToBuild(BuildOptions& options, const CutlassHeaders& headers);

// True when `source` includes a CuTe or CUTLASS header (#include <cute/...> or <cutlass/...>).
bool includesCutlass(std::string_view source);

}  // namespace ks::nvcc
