#pragma once
// Shared by the static-rule tests: a reference program in the KernelBench shape, and helpers to run
// checkStatic and pick out one family's flags (every per-family test and the CUDA-L1 run use them).
#include <string>
#include <vector>

#include "core/flags/static_rules.h"

namespace ks::testing {

// Square GEMM reference: fp32 inputs from get_inputs, N = 256.
inline const char* kMatmulReference = R"PY(import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, A, B):
        return torch.matmul(A, B)

N = 256

def get_inputs():
    A = torch.randn(N, N)
    B = torch.randn(N, N)
    return [A, B]

def get_init_inputs():
    return []
)PY";

// The candidate's model header and inputs, identical to the reference's; tests write the body between.
inline std::string candidate(const std::string& body) {
  return "import torch\nimport torch.nn as nn\n\n" + body +
         "\nN = 256\n\ndef get_inputs():\n    A = torch.randn(N, N)\n    B = torch.randn(N, N)\n"
         "    return [A, B]\n\ndef get_init_inputs():\n    return []\n";
}

// The flags of one family among `flags`, in their order.
inline std::vector<Flag> ofFamily(std::vector<Flag> flags, const std::string& family) {
  std::vector<Flag> out;
  for (Flag& f : flags)
    if (f.family == family) out.push_back(std::move(f));
  return out;
}

// Whether `flags` hold one of `family` with `severity`.
inline bool hasFlag(const std::vector<Flag>& flags, const std::string& family, FlagSeverity severity) {
  for (const Flag& f : flags)
    if (f.family == family && f.severity == severity) return true;
  return false;
}

// Parses both programs, runs the static rules and keeps the flags of `family`.
inline std::vector<Flag> flagsOf(const std::string& family, const std::string& candidateProgram,
                                 const std::string& reference = kMatmulReference) {
  return ofFamily(checkStatic(reference, candidateProgram), family);
}

// 1-based line of the first line of `program` containing `needle` (0 when absent).
inline int lineOf(const std::string& program, const std::string& needle) {
  int line = 1;
  std::size_t start = 0;
  while (start <= program.size()) {
    const std::size_t end = program.find('\n', start);
    const std::string l = program.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (l.find(needle) != std::string::npos) return line;
    if (end == std::string::npos) break;
    start = end + 1;
    ++line;
  }
  return 0;
}

inline bool hasLine(const Flag& f, int line) {
  for (const int l : f.lines)
    if (l == line) return true;
  return false;
}

}  // namespace ks::testing
