#pragma once
// The CUDA-L1 release (../shared/datasets/cuda-l1/h100.jsonl) as (reference, candidate) program pairs,
// for tests that run on real generated code. Tests GTEST_SKIP when the file is absent.
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>
#include "ks_test_paths.h"

namespace ks::testdata {

struct CudaL1Program {
  int line = 0;  // 1-based line of the JSONL file
  int level = 0;
  int task = 0;
  std::string reference;
  std::optional<std::string> candidate;  // custom_code; nullopt when the release records none
};

inline std::string cudaL1Path() { return std::string(KS_SHARED_DIR) + "/datasets/cuda-l1/h100.jsonl"; }

// Empty when the file cannot be read.
inline std::vector<CudaL1Program> loadCudaL1() {
  std::vector<CudaL1Program> out;
  std::ifstream in(cudaL1Path());
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    const auto j = nlohmann::json::parse(line);
    CudaL1Program p;
    p.line = n;
    p.level = j.value("level_id", 0);
    p.task = j.value("task_id", 0);
    p.reference = j.value("ref_code", "");
    if (j.contains("custom_code") && j["custom_code"].is_string())
      p.candidate = j["custom_code"].get<std::string>();
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace ks::testdata
