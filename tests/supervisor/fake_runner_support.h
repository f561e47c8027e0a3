#pragma once
// What the supervisor suites share to drive fake_runner.py: a per-process scratch folder removed when the
// suite ends, the options that start the fake runner with short deadlines, an evaluate request whose program
// picks the fake's behaviour, and the pid its results report.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/protocol/request.h"
#include "core/supervisor/runner_client.h"
#include "core/supervisor/supervisor_options.h"
#include "ks_test_paths.h"

namespace ks::supervisor::fake {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// <tmp>/kscope-supervisor-test-<pid>, removed (with everything in it) after the last test.
inline std::filesystem::path testRoot() {
  return std::filesystem::temp_directory_path() / ("kscope-supervisor-test-" + std::to_string(getpid()));
}

class RemoveTestRoot : public ::testing::Environment {
 public:
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(testRoot(), ec);
  }
};
inline const auto* const kRemoveTestRoot = ::testing::AddGlobalTestEnvironment(new RemoveTestRoot);

inline SupervisorOptions fakeRunner(std::vector<std::pair<std::string, std::string>> environment = {}) {
  SupervisorOptions o;
  o.runner = std::filesystem::path(KS_SOURCE_DIR) / "tests" / "supervisor" / "fake_runner.py";
  o.environment = std::move(environment);
  o.scratchRoot = testRoot() / "scratch";
  o.startDeadlineSeconds = 10;
  o.answerDeadlineSeconds = 10;
  return o;
}

// An evaluate request whose candidate program names the fake runner's behaviour ("ok", "segfault", ...).
inline protocol::Request evaluate(const std::string& behaviour) {
  protocol::Request r;
  r.op = protocol::Op::Evaluate;
  r.task = protocol::TaskSpec{.key = "L1/1", .reference = "import torch\n"};
  r.candidate = protocol::CandidateSpec{.id = behaviour, .code = behaviour};
  return r;
}

inline std::int64_t runnerPid(const RequestOutcome& o) {
  return o.result() ? o.result()->result.value("pid", std::int64_t(0)) : 0;
}

}  // namespace ks::supervisor::fake
