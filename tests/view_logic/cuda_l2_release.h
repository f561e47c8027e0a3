#pragma once
// The CUDA-L2 release under ../shared, read once a test process for every test that looks at it (the
// view-model tests and the GUI tests); NEED_CUDA_L2_RELEASE() binds it to `run` or skips the test, saying
// where the release was looked for.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "core/formats/load.h"
#include "ks_test_paths.h"
#include "views/logic/loaded_run.h"

namespace ks::test {

inline const std::filesystem::path kCudaL2ReleaseDir = KS_SHARED_DIR "/datasets/cuda-l2";

// nullptr when the release is absent.
inline std::shared_ptr<const LoadedRun> cudaL2Release() {
  static const std::shared_ptr<const LoadedRun> run = []() -> std::shared_ptr<const LoadedRun> {
    if (!std::filesystem::exists(kCudaL2ReleaseDir / "kernels")) return nullptr;
    return std::make_shared<const LoadedRun>(loadAny(kCudaL2ReleaseDir));
  }();
  return run;
}

}  // namespace ks::test

#define NEED_CUDA_L2_RELEASE()                                                \
  const std::shared_ptr<const ks::LoadedRun> run = ks::test::cudaL2Release(); \
  if (!run) GTEST_SKIP() << "the CUDA-L2 release is not at " << ks::test::kCudaL2ReleaseDir.string() << " (../shared)"
