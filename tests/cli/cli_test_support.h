#pragma once
// Shared by the kscope end-to-end tests: a temporary folder per test, the built kscope (KSCOPE_BINARY) run
// through the shell with stdout captured and stderr in a file, and JSON parsing of what it printed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "ks_test_paths.h"

namespace ks::clitest {

namespace fs = std::filesystem;
using nlohmann::json;

inline const fs::path kCudaL1 = fs::path(KS_SHARED_DIR) / "datasets/cuda-l1/h100.jsonl";

struct Result {
  int exitCode = -1;
  std::string out, err;
};

// `s` quoted for sh.
inline std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
inline std::string quoted(const fs::path& p) { return quoted(p.string()); }

inline std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("ks-cli-" + std::string(info->test_suite_name()) + "-" +
                                        std::string(info->name()) + "-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return dir_ / name;
  }

  // Runs `kscope <args>` with `env` (e.g. "XDG_DATA_HOME=/tmp/x ") in front; stdout is captured through a
  // pipe, stderr through a file.
  Result kscope(const std::string& args, const std::string& env = "") {
    const fs::path errFile = dir_ / "stderr.txt";
    const std::string command = (env.empty() ? "" : "env " + env + " ") + quoted(std::string(KSCOPE_BINARY)) +
                                " " + args + " 2>" + quoted(errFile);
    Result r;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    char buffer[65536];
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) r.out.append(buffer, n);
    const int status = pclose(pipe);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.err = slurp(errFile);
    return r;
  }

  static json parse(const Result& r) { return parse(r.out); }
  static json parse(const std::string& text) {
    json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(j.is_discarded()) << "not JSON: " << text.substr(0, 500);
    return j;
  }

  fs::path dir_;
};

}  // namespace ks::clitest
