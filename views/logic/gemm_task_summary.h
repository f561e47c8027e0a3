#pragma once
// What the code view says above a GEMM task (CUDA-L2): the problem in words and as PyTorch code, split out of
// Task::referenceDescription, and the candidate kernel's tile configuration read from its source
// (core/formats/gemm_tile_config.h): "BM 128 · BN 256 · BK 32 · 4 stages · Swizzle<3,3,3>". Empty for a task
// without a GemmShape.
#include <string>

namespace ks {

struct Candidate;
struct Task;

struct GemmTaskSummary {
  std::string shape;  // "M 1024 × N 2048 × K 64 · fp16 in, fp32 accumulate · H100"; empty: not a GEMM task
  std::string words;      // the description's text, without its code block
  std::string code;       // the code block's contents (Python), without the fences
  std::string tiles;      // the candidate's tile parameters on one line; empty when the source names none
  std::string tileLines;  // "BM: line 12 (BM = Int<128>{}) ..." one per line, for a tooltip
};

GemmTaskSummary gemmTaskSummary(const Task& task, const Candidate* candidate);

}  // namespace ks
