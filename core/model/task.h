#pragma once
// A task: a reference program and the candidates generated for it.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/model/candidate.h"

namespace ks {

// The problem a GEMM task computes (CUDA-L2): C = A·B with A M×K and B K×N, on the GPU the release targets.
struct GemmShape {
  std::int64_t m = 0, n = 0, k = 0;
  std::string gpu;        // as the release names it: "h100", "a100", "3090"
  std::string precision;  // the release's type string, CUTLASS MMA order D,A,B,C: "F32F16F16F32"
  std::string inputType;  // of A and B, from `precision`: "fp16", "bf16", "fp32" ("" when not understood)
  std::string accumulatorType;  // of the products' sum (D, C): "fp32", "fp16" ("" when not understood)
};

struct Task {
  // The task's own key when its source names tasks by name rather than by KernelBench level and number:
  // CUDA-L2 "h100_F32F16F16F32/1024x1024x1024", good-kernels "LayerNorm". Empty: key() is L<level>/<number>.
  std::string id;
  int level = 0;     // KernelBench level (1-3); 0 when the source has none
  int number = 0;    // task number within the level
  std::string name;  // "12_Matmul_with_diagonal_matrices_" or a name derived from the reference
  CodeLanguage referenceLanguage = CodeLanguage::Python;
  std::string
      referenceCode;  // Python (Model/get_inputs/get_init_inputs) or, for native tasks, a libtorch expression
  // Other baselines written as programs (CUDA-L1: "cuda_graph", "cudnn"): name -> program text.
  std::vector<std::pair<std::string, std::string>> baselinePrograms;
  std::vector<Candidate> candidates;
  int sourceLine = 0;  // 1-based line of the file it was read from
  // What the reference computes, for a person: words, then a fenced code block (markdown). Empty when the
  // reference program speaks for itself (KernelBench).
  std::string referenceDescription;
  std::optional<GemmShape> gemm;  // CUDA-L2: the matrix shape, GPU and precision of the release
  std::string note;  // what the reader wants a person to know about the task (e.g. "no recorded numbers")

  // "L1/12" (or `id` when set) — the stable key used by the CLI (--task) and the GUI.
  std::string key() const;
};

}  // namespace ks
