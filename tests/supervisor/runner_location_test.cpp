#include "core/supervisor/runner_location.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using ks::supervisor::findRunner;

namespace {

// A folder with an executable file "kscope-runner" in it; the test's working folder is its parent.
class RunnerLocationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("ks-runner-location-" + std::to_string(::getpid()));
    fs::create_directories(root_ / "bin");
    std::ofstream(root_ / "bin" / "kscope-runner") << "#!/bin/sh\n";
    ::chmod((root_ / "bin" / "kscope-runner").c_str(), 0755);
    std::ofstream(root_ / "bin" / "notes.txt") << "not a program\n";
    before_ = fs::current_path();
    fs::current_path(root_);
  }
  void TearDown() override {
    fs::current_path(before_);
    ::unsetenv("KSCOPE_RUNNER");
    fs::remove_all(root_);
  }
  fs::path root_, before_;
};

TEST_F(RunnerLocationTest, ARelativeRunnerPathIsMadeAbsolute) {
  const auto found = findRunner("bin/../bin/kscope-runner");
  ASSERT_TRUE(found.found()) << found.error;
  EXPECT_TRUE(found.path.is_absolute());
  EXPECT_EQ(found.path, root_ / "bin" / "kscope-runner");
}

TEST_F(RunnerLocationTest, ARelativeKscopeRunnerVariableIsMadeAbsolute) {
  ::setenv("KSCOPE_RUNNER", "bin/kscope-runner", 1);
  const auto found = findRunner();
  ASSERT_TRUE(found.found()) << found.error;
  EXPECT_EQ(found.path, root_ / "bin" / "kscope-runner");
}

TEST_F(RunnerLocationTest, AFileThatIsNotExecutableIsRefusedWithItsPath) {
  const auto found = findRunner("bin/notes.txt");
  EXPECT_FALSE(found.found());
  EXPECT_NE(found.error.find("bin/notes.txt is not an executable file"), std::string::npos) << found.error;
}

}  // namespace
