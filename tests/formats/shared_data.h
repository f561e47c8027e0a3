#pragma once
// The real datasets under ../shared/datasets (read-only, never copied into the repository).
#include <gtest/gtest.h>

#include <filesystem>
#include "ks_test_paths.h"

namespace ks::test {

inline std::filesystem::path cudaL1File() {
  return std::filesystem::path(KS_SHARED_DIR) / "datasets/cuda-l1/h100.jsonl";
}

inline std::filesystem::path cudaL2Root() {
  return std::filesystem::path(KS_SHARED_DIR) / "datasets/cuda-l2";
}

inline std::filesystem::path goodKernelsRoot() {
  return std::filesystem::path(KS_SHARED_DIR) / "datasets/good-kernels";
}

}  // namespace ks::test

// Skips the current test when the CUDA-L1 release file is not there.
#define KS_REQUIRE_CUDA_L1()                                                                      \
  do {                                                                                            \
    if (!std::filesystem::exists(::ks::test::cudaL1File()))                                       \
      GTEST_SKIP() << "CUDA-L1 dataset not found at " << ::ks::test::cudaL1File()                 \
                   << " (expected ../shared/datasets/cuda-l1/h100.jsonl next to the repository)"; \
  } while (0)

// Skips the current test when the CUDA-L2 release (kernels/ and eval_results/) is not there.
#define KS_REQUIRE_CUDA_L2()                                                                         \
  do {                                                                                               \
    if (!std::filesystem::exists(::ks::test::cudaL2Root() / "kernels/h100_F32F16F16F32"))            \
      GTEST_SKIP() << "CUDA-L2 dataset not found at " << ::ks::test::cudaL2Root()                    \
                   << " (expected ../shared/datasets/cuda-l2/kernels/h100_F32F16F16F32 next to the " \
                      "repository)";                                                                 \
  } while (0)

// Skips the current test when the good-kernels folders are not there.
#define KS_REQUIRE_GOOD_KERNELS()                                                                \
  do {                                                                                           \
    if (!std::filesystem::exists(::ks::test::goodKernelsRoot() / "LayerNorm/ref.py"))            \
      GTEST_SKIP() << "good-kernels dataset not found at " << ::ks::test::goodKernelsRoot()      \
                   << " (expected ../shared/datasets/good-kernels/LayerNorm/ref.py next to the " \
                      "repository)";                                                             \
  } while (0)
