#pragma once
// The CUDA-L1 H100 release's programs by level and task (skipped with a message where the dataset is not).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include "ks_test_paths.h"

namespace ks::repair::test {

inline std::filesystem::path cudaL1() {
  return std::filesystem::path(KS_SHARED_DIR) / "datasets/cuda-l1/h100.jsonl";
}

// custom_code of every entry that has one, by (level, task).
inline const std::map<std::pair<int, int>, std::string>& cudaL1Programs() {
  static const std::map<std::pair<int, int>, std::string> programs = [] {
    std::map<std::pair<int, int>, std::string> out;
    std::ifstream in(cudaL1());
    for (std::string line; std::getline(in, line);) {
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j["custom_code"].is_string()) continue;
      out[{j["level_id"].get<int>(), j["task_id"].get<int>()}] = j["custom_code"].get<std::string>();
    }
    return out;
  }();
  return programs;
}

inline std::optional<std::string> cudaL1Program(int level, int task) {
  auto it = cudaL1Programs().find({level, task});
  if (it == cudaL1Programs().end()) return std::nullopt;
  return it->second;
}

// The programs that build an extension (load_inline, or load of sources).
inline bool buildsExtension(const std::string& program) {
  return program.find("cpp_extension") != std::string::npos &&
         (program.find("load_inline") != std::string::npos || program.find("load(") != std::string::npos);
}

}  // namespace ks::repair::test

#define KS_REQUIRE_CUDA_L1()                                                  \
  do {                                                                        \
    if (!std::filesystem::exists(::ks::repair::test::cudaL1()))               \
      GTEST_SKIP() << ::ks::repair::test::cudaL1()                            \
                   << " is not there (KS_SHARED_DIR): dataset tests skipped"; \
  } while (0)

#define KS_CUDA_L1_PROGRAM(var, level, task)                                 \
  KS_REQUIRE_CUDA_L1();                                                      \
  const auto var##_found = ::ks::repair::test::cudaL1Program(level, task);   \
  ASSERT_TRUE(var##_found) << "L" #level "/" #task " is not in the dataset"; \
  const std::string& var = *var##_found
