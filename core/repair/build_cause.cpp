#include "core/repair/build_cause.h"

#include <array>
#include <regex>
#include <utility>

#include "core/nvcc/diagnostics_parser.h"

namespace ks::repair {
namespace {

struct CauseInfo {
  BuildCause cause;
  const char* name;
  const char* description;
  bool repairable;
};

constexpr std::array kCauses{
    CauseInfo{BuildCause::None, "none", "the build succeeded", false},
    CauseInfo{BuildCause::NoGpuArch, "no-gpu-arch",
              "torch found no GPU to pick an architecture for (no TORCH_CUDA_ARCH_LIST): nvcc never ran",
              false},
    CauseInfo{BuildCause::UnsupportedArch, "unsupported-arch",
              "the build flags name a GPU architecture this nvcc no longer supports", true},
    CauseInfo{BuildCause::BoundKernel, "bound-kernel",
              "functions= names a __global__ kernel: torch's generated binding cannot call a kernel", true},
    CauseInfo{BuildCause::UndeclaredBoundFunction, "undeclared-bound-function",
              "functions= names a function that cpp_sources never declares", true},
    CauseInfo{BuildCause::DuplicateModule, "duplicate-module",
              "the sources define PYBIND11_MODULE and functions= makes torch generate another", true},
    CauseInfo{BuildCause::CudaInCppSources, "cuda-in-cpp-sources",
              "the CUDA code is passed as cpp_sources, so the C++ compiler, not nvcc, compiles it", true},
    CauseInfo{
        BuildCause::RemovedTensorApi, "removed-tensor-api",
        "the sources use a tensor API that torch removed (.type() as a ScalarType, .data<T>(), AT_CHECK)",
        true},
    CauseInfo{BuildCause::MissingHeader, "missing-header",
              "a header is missing, or an API is used without including its header", true},
    CauseInfo{BuildCause::SourceError, "source-error", "the program's own sources do not compile", false},
    CauseInfo{BuildCause::LinkError, "link-error", "the sources compiled but the extension did not link",
              false},
    CauseInfo{BuildCause::Toolchain, "toolchain",
              "the build tools failed (no compiler or ninja, out of time): not the program's sources", false},
    CauseInfo{BuildCause::Unknown, "unknown", "no compiler error could be read from the output", false},
};

const CauseInfo& info(BuildCause c) {
  for (const auto& i : kCauses)
    if (i.cause == c) return i;
  return kCauses.back();
}

std::string lineAround(std::string_view text, std::size_t at) {
  std::size_t begin = text.rfind('\n', at);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  std::size_t end = text.find('\n', at);
  if (end == std::string_view::npos) end = text.size();
  std::string line(text.substr(begin, end - begin));
  const auto first = line.find_first_not_of(" \t");
  return first == std::string::npos ? "" : line.substr(first, 300);
}

// gcc quotes names with U+2018/U+2019 under a UTF-8 locale (the H100 machine runs with LC_ALL=en_US.UTF-8:
// "error: ‘forward’ was not declared in this scope"), with ASCII quotes under LANG=C. The patterns
// below are written for ASCII quotes, so the typographic ones are made ASCII first.
std::string asciiQuotes(std::string_view output) {
  std::string text;
  text.reserve(output.size());
  for (std::size_t i = 0; i < output.size(); ++i) {
    const std::string_view rest = output.substr(i, 3);
    if (rest == "\xE2\x80\x98" || rest == "\xE2\x80\x99") {
      text += '\'';
      i += 2;
    } else {
      text += output[i];
    }
  }
  return text;
}

// The program defines its own PYBIND11_MODULE: the module torch generates from functions= is a second one.
bool definesModule(std::string_view program) {
  return program.find("PYBIND11_MODULE") != std::string_view::npos;
}

// Name of a function the program defines as a __global__ kernel.
bool isKernelIn(std::string_view program, const std::string& name) {
  if (program.empty() || name.empty()) return false;
  const std::string text(program);
  const std::regex kernel("__global__[^;{(]*\\b" + name + "\\s*\\(");
  return std::regex_search(text, kernel);
}

struct Match {
  std::size_t at = std::string_view::npos;
  std::string name;
};

Match search(const std::string& text, const std::regex& re, int group = 0) {
  std::smatch m;
  if (!std::regex_search(text, m, re)) return {};
  return {static_cast<std::size_t>(m.position(0)), group > 0 ? m[group].str() : ""};
}

}  // namespace

const char* causeName(BuildCause c) { return info(c).name; }
const char* causeDescription(BuildCause c) { return info(c).description; }
bool causeIsRepairable(BuildCause c) { return info(c).repairable; }

std::optional<BuildCause> causeFromName(std::string_view name) {
  for (const auto& i : kCauses)
    if (name == i.name) return i.cause;
  return std::nullopt;
}

BuildFailure classifyBuildFailure(std::string_view rawOutput, std::string_view program) {
  const std::string text = asciiQuotes(rawOutput);
  const std::string_view output = text;
  auto found = [&](BuildCause cause, const Match& m) {
    return BuildFailure{cause, lineAround(output, m.at), m.name};
  };
  using R = std::regex;
  const auto icase = R::ECMAScript | R::icase;  // nvcc spells "Unsupported gpu architecture" both ways

  if (auto m = search(text, R("_get_cuda_arch_flags|arch_list\\[-1\\]"));
      m.at != std::string::npos && text.find("IndexError") != std::string::npos)
    return found(BuildCause::NoGpuArch, m);
  if (auto m =
          search(text, R("Unsupported gpu architecture '(\\w+)'|Value '(\\w+)' is not defined for option "
                         "'gpu-(architecture|code)'",
                         icase));
      m.at != std::string::npos) {
    std::smatch sm;
    std::regex_search(text, sm, R("'((sm|compute)_\\w+)'"));
    m.name = sm.size() > 1 ? sm[1].str() : "";
    return found(BuildCause::UnsupportedArch, m);
  }
  if (auto m = search(text, R("redefinition of '[^']*PyInit_|multiple definition of [`'][^`']*PyInit_|"
                              "PyInit_\\w+\\(\\)[^\\n]*(previously defined|already been defined)"));
      m.at != std::string::npos)
    return found(BuildCause::DuplicateModule, m);
  // An undeclared name: gcc ("'forward' was not declared in this scope"), clang ("use of undeclared
  // identifier 'forward'"), EDG/nvcc ("identifier \"forward\" is undefined").
  {
    const R undeclared(
        "'(\\w+)' was not declared in this scope|use of undeclared identifier '(\\w+)'|identifier \"(\\w+)\" "
        "is "
        "undefined");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), undeclared); it != std::sregex_iterator();
         ++it) {
      const std::smatch& m = *it;
      std::string name = m[1].matched ? m[1].str() : m[2].matched ? m[2].str() : m[3].str();
      const Match at{static_cast<std::size_t>(m.position(0)), name};
      if (name == "AT_CHECK" || name.rfind("THC", 0) == 0) return found(BuildCause::RemovedTensorApi, at);
      // AT_CUDA_CHECK comes with <ATen/cuda/CUDAContext.h> (through ATen/cuda/Exceptions.h).
      if (name == "AT_CUDA_CHECK") return found(BuildCause::MissingHeader, at);
      // CUDA's built-in variables unknown in main.cpp, the file torch writes cpp_sources to: the program's
      // CUDA went in as cpp_sources (CUDA-L1 L1/95), which no torch compiles with nvcc.
      if ((name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim" ||
           name == "__syncthreads") &&
          lineAround(output, at.at).find("main.cpp") != std::string::npos)
        return found(BuildCause::CudaInCppSources, at);
      // main.cpp is the binding file torch generates from functions=: an undeclared name there is a bound
      // one.
      const std::string line = lineAround(output, at.at);
      const bool inBindings = line.find("main.cpp") != std::string::npos ||
                              text.find("m.def(\"" + name + "\"") != std::string::npos;
      if (isKernelIn(program, name)) return found(BuildCause::BoundKernel, at);
      // The generated binding cannot see a function the sources' own PYBIND11_MODULE binds; dropping the
      // generated module (drop-generated-module) is what makes it build, so that is the cause named.
      if (inBindings && definesModule(program)) return found(BuildCause::DuplicateModule, at);
      if (inBindings) return found(BuildCause::UndeclaredBoundFunction, at);
    }
  }
  if (auto m = search(text, R("DeprecatedTypeProperties|has no member (named )?['\"]data['\"]|"
                              "'AT_CHECK' was not declared|\"AT_CHECK\" is undefined|THC\\w*\\.h"));
      m.at != std::string::npos)
    return found(BuildCause::RemovedTensorApi, m);
  if (auto m = search(text,
                      R("fatal error: ([\\w./]+): No such file or directory|cannot open source file "
                        "\"([\\w./]+)\"|namespace \"(at::cuda|c10::cuda)\" has no member|'(at::cuda|c10::"
                        "cuda)::\\w+' has not been declared|'getCurrentCUDAStream' is not a member"),
                      1);
      m.at != std::string::npos)
    return found(BuildCause::MissingHeader, m);
  if (auto m = search(text,
                      R("undefined symbol: (\\w+)|undefined reference to|multiple definition of|ld "
                        "returned \\d exit status"),
                      1);
      m.at != std::string::npos)
    return found(BuildCause::LinkError, m);
  if (auto m =
          search(text, R("Ninja is required|No such file or directory: '[^']*nvcc'|CUDA_HOME environment "
                         "variable is not set|timed out|nvcc: not found|command not found"));
      m.at != std::string::npos)
    return found(BuildCause::Toolchain, m);
  if (auto m = search(text, R("(^|\\n)[^\\n]*(error:|error :|: error|fatal error)"));
      m.at != std::string::npos) {
    BuildFailure f = found(BuildCause::SourceError, m);
    f.evidence = lineAround(output, m.at + (text[m.at] == '\n' ? 1 : 0));
    return f;
  }
  // Any error the compiler printed in a form the diagnostics parser reads (ptxas's "ptxas error   : …",
  // nvcc's own "nvcc fatal   : …" among them) is the build's error: a cause read from it is never "unknown".
  for (const nvcc::Diagnostic& d : nvcc::parseDiagnostics(text))
    if (d.severity == nvcc::Severity::Error)
      return {d.tool == "linker" ? BuildCause::LinkError : BuildCause::SourceError,
              d.toString().substr(0, 300), ""};
  if (text.empty()) return {BuildCause::None, "", ""};
  return {BuildCause::Unknown, lineAround(output, 0), ""};
}

}  // namespace ks::repair
