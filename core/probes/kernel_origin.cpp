#include "core/probes/kernel_origin.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace ks::engine {
namespace {

std::string lowered(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool identifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `name` appears in a demangled kernel name as a whole identifier followed by its arguments or template.
bool launches(const std::string& kernel, const std::string& name) {
  for (auto at = kernel.find(name); at != std::string::npos; at = kernel.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    const bool startsWord = at == 0 || !identifierChar(kernel[at - 1]);
    if (startsWord && (end == kernel.size() || kernel[end] == '(' || kernel[end] == '<')) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> declaredKernels(const std::string& code) {
  std::vector<std::string> out;
  constexpr std::string_view kGlobal = "__global__";
  // The identifier right before the first '(' at or after `from`, and where that '(' is.
  auto nameBeforeParen = [&](std::size_t from, std::size_t& paren) {
    paren = code.find('(', from);
    if (paren == std::string::npos) return std::string();
    std::size_t end = paren;
    while (end > from && std::isspace(static_cast<unsigned char>(code[end - 1]))) --end;
    std::size_t begin = end;
    while (begin > from && identifierChar(code[begin - 1])) --begin;
    return code.substr(begin, end - begin);
  };
  for (auto at = code.find(kGlobal); at != std::string::npos; at = code.find(kGlobal, at + kGlobal.size())) {
    std::size_t paren = 0;
    std::string name = nameBeforeParen(at + kGlobal.size(), paren);
    if (name == "__launch_bounds__") {  // __global__ void __launch_bounds__(256) kernel(...)
      const std::size_t close = code.find(')', paren);
      if (close == std::string::npos) break;
      name = nameBeforeParen(close + 1, paren);
    }
    if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  }
  return out;
}

bool tf32KernelName(const std::string& name) { return lowered(name).find("tf32") != std::string::npos; }

bool halfKernelName(const std::string& name) {
  const std::string n = lowered(name);
  for (const char* marker : {"bfloat16", "bf16", "float16", "__half", "fp16", "f16f16", "h884", "h1688", "h16816",
                             "hmma"})
    if (n.find(marker) != std::string::npos) return true;
  return false;
}

KernelOriginEvidence kernelOrigin(const protocol::BuildReport& build,
                                  const std::vector<protocol::KernelLaunch>& kernels,
                                  const std::string& code) {
  KernelOriginEvidence e;
  e.profiled = true;
  for (const protocol::ExtensionBuild& x : build.extensions)
    if (x.program == "candidate") {
      ++e.candidateBuilds;
      if (!x.ok) ++e.failedBuilds;
    }
  e.declaredKernels = declaredKernels(code);
  e.tritonKernels = code.find("triton.jit") != std::string::npos;
  std::set<std::string> reference, candidate;
  for (const protocol::KernelLaunch& k : kernels)
    (k.model == "reference" ? reference : candidate).insert(k.name);
  e.candidateKernels = static_cast<int>(candidate.size());
  for (const std::string& name : candidate) {
    if (!reference.count(name)) ++e.kernelsNotInReference;
    if (tf32KernelName(name)) e.tf32Kernels.push_back(name);
    else if (halfKernelName(name)) e.halfKernels.push_back(name);
    for (const std::string& declared : e.declaredKernels)
      if (launches(name, declared) &&
          std::find(e.declaredRan.begin(), e.declaredRan.end(), declared) == e.declaredRan.end())
        e.declaredRan.push_back(declared);
  }
  return e;
}

}  // namespace ks::engine
