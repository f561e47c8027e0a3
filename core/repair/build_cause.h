#pragma once
// Why an extension build failed, read from the compiler's output (torch's exception text or nvcc's log):
// each failure gets one cause, the first that explains an error, in the order below. The mechanical causes
// (undeclared bound function, duplicate module, removed tensor API, unsupported architecture, missing
// header, bound kernel) have a repair in program_repair.h; the others do not.
#include <optional>
#include <string>
#include <string_view>

namespace ks::repair {

enum class BuildCause {
  None,             // the build succeeded, or nothing was recorded
  NoGpuArch,        // torch could not pick an architecture (no GPU and no TORCH_CUDA_ARCH_LIST)
  UnsupportedArch,  // -arch/-gencode names an architecture this nvcc no longer supports (sm_70 on CUDA 13)
  BoundKernel,      // functions= names a __global__ kernel: the generated binding cannot call it
  UndeclaredBoundFunction,  // functions= names a function cpp_sources never declares
  DuplicateModule,          // the sources define PYBIND11_MODULE and functions= makes another
  CudaInCppSources,         // CUDA code passed as cpp_sources (no cuda_sources): g++ compiles it
  RemovedTensorApi,         // .type() where a ScalarType is wanted, .data<T>(), AT_CHECK, THC...
  MissingHeader,            // a header that is not there, or an API used without its header
  SourceError,              // any other compiler error in the program's own sources
  LinkError,                // the objects compiled but the library did not link
  Toolchain,                // no compiler, ninja failed to start, out of time: not the program's fault
  Unknown,                  // no compiler error could be read from the output
};

const char* causeName(BuildCause c);  // "undeclared-bound-function", ... (the protocol's spelling)
std::optional<BuildCause> causeFromName(std::string_view name);
// One sentence for a person: "functions= names a function that cpp_sources never declares".
const char* causeDescription(BuildCause c);
// The cause has a mechanical repair (program_repair.h).
bool causeIsRepairable(BuildCause c);

struct BuildFailure {
  BuildCause cause = BuildCause::Unknown;
  std::string evidence;  // the compiler line that decided it
  std::string name;      // the function, header or architecture concerned, when one is named
};

// `output`: the compiler output (or torch's exception text; gcc's typographic quotes under a UTF-8 locale
// read as ASCII ones, and so does the evidence). `program`: the Python program whose sources were built,
// when known; a name the generated binding cannot see is then a bound __global__ kernel (bound-kernel), a
// function of sources that define their own PYBIND11_MODULE (duplicate-module), or else an undeclared one.
BuildFailure classifyBuildFailure(std::string_view output, std::string_view program = {});

}  // namespace ks::repair
