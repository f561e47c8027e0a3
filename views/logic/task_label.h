#pragma once
// What tells the tasks of a run apart, for the task list's Task column: a GEMM task's shape ("64×4096×4096",
// M×N×K), since every task of a CUDA-L2 release shares its GPU and precision and the key
// "h100_F32F16F16F32/64x4096x4096" puts them first, where a narrow column cuts the shape off; the task's key
// otherwise ("L1/12", "LayerNorm").
#include <string>

#include "core/model/task.h"

namespace ks {

std::string taskLabel(const Task& task);
// The label and the name, for a pane's title: "L1/12 · 12_Matmul_with_diagonal_matrices_",
// "64×64×64 · GEMM 64x64x64 (h100_F32F16F16F32)" (the shape first, where a narrow title keeps it).
std::string taskTitle(const Task& task);

// Whether the task's name says nothing that its label and its run's common parts (the release: GPU and
// precision) do not: a GEMM task named "GEMM 64x64x64 (h100_F32F16F16F32)", or one without a name. The task
// list hides its Name column when this holds for every task.
bool nameRepeatsLabel(const Task& task);

}  // namespace ks
