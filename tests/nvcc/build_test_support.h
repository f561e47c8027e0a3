#pragma once
// Helpers for the build tests: fixture files, a fresh scratch folder per test, and nvcc's presence.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/nvcc/nvcc_locator.h"
#include "ks_test_paths.h"

namespace ks::nvcc::test {

inline std::filesystem::path fixture(const std::string& relative) {
  return std::filesystem::path(KS_SOURCE_DIR) / "tests" / "nvcc" / "fixtures" / relative;
}

inline std::string readFixture(const std::string& relative) {
  std::ifstream in(fixture(relative), std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every folder the tests make lives under one per-process root, removed when the test program ends.
inline std::filesystem::path testRoot() {
  return std::filesystem::temp_directory_path() / ("kscope-build-test-" + std::to_string(getpid()));
}

class RemoveTestRoot : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(testRoot(), ec);
  }
};
inline ::testing::Environment* const kRemoveTestRoot =
    ::testing::AddGlobalTestEnvironment(new RemoveTestRoot);

inline std::filesystem::path freshDir(const std::string& what) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  auto dir = testRoot() / (std::string(info->test_suite_name()) + "-" + info->name() + "-" + what);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// 1-based line of the first line of `text` containing `needle`; 0 when none does.
inline int lineContaining(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.find(needle) != std::string::npos) return n;
  }
  return 0;
}

}  // namespace ks::nvcc::test

// Compiling needs nvcc; on a machine without it the test says so and is skipped.
#define KS_REQUIRE_NVCC()                                                                  \
  do {                                                                                     \
    if (auto where = ::ks::nvcc::findNvcc(); !where.found()) GTEST_SKIP() << where.error; \
  } while (0)
