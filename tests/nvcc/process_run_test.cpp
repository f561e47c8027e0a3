#include "core/nvcc/process_run.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <thread>

namespace ks::nvcc {
namespace {

TEST(ProcessRun, CapturesStdoutAndStderrAndExitStatus) {
  auto out = runProcess({.argv = {"sh", "-c", "echo to-out; echo to-err >&2; exit 3"}});
  ASSERT_TRUE(out.started) << out.startError;
  EXPECT_EQ(out.exitCode, 3);
  EXPECT_FALSE(out.succeeded());
  EXPECT_NE(out.output.find("to-out"), std::string::npos);
  EXPECT_NE(out.output.find("to-err"), std::string::npos);
  EXPECT_EQ(out.describeEnd(), "exited with status 3");
}

TEST(ProcessRun, DeadlineKillsTheWholeProcessGroup) {
  // The shell's child `sleep` holds the output pipe too: only killing the group ends both.
  auto out = runProcess({.argv = {"sh", "-c", "sleep 30 & sleep 30"}, .deadlineSeconds = 0.3});
  EXPECT_TRUE(out.timedOut);
  EXPECT_LT(out.seconds, 5);
  EXPECT_NE(out.describeEnd().find("timed out"), std::string::npos);
}

TEST(ProcessRun, ReportsTheSignalThatEndedIt) {
  auto out = runProcess({.argv = {"sh", "-c", "kill -SEGV $$"}});
  EXPECT_EQ(out.signal, SIGSEGV);
  EXPECT_NE(out.describeEnd().find("signal 11"), std::string::npos);
}

TEST(ProcessRun, MissingProgramIsAnErrorValue) {
  auto out = runProcess({.argv = {"/nonexistent/kscope-tool"}});
  EXPECT_FALSE(out.started);
  EXPECT_NE(out.startError.find("/nonexistent/kscope-tool"), std::string::npos);
}

TEST(ProcessRun, CancelFromAnotherThread) {
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  auto out = runProcess({.argv = {"sleep", "30"}, .cancel = &cancel});
  canceller.join();
  EXPECT_TRUE(out.cancelled);
  EXPECT_LT(out.seconds, 5);
}

TEST(ProcessRun, WorkingDirectoryAndEnvironment) {
  auto out = runProcess({.argv = {"sh", "-c", "pwd; echo $KSCOPE_TEST_VAR"},
                         .workingDirectory = "/tmp",
                         .environment = {{"KSCOPE_TEST_VAR", "hello"}}});
  EXPECT_EQ(out.output, "/tmp\nhello\n");
}

}  // namespace
}  // namespace ks::nvcc
