#pragma once
// Runs a tool (nvcc, python) to completion as a child process in its own process group, with a deadline,
// capturing stdout and stderr together. Never throws; a tool that cannot start is reported in the result.
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace ks::nvcc {

struct ProcessSpec {
  std::vector<std::string> argv;           // argv[0] is a path, or a name looked up in PATH
  std::filesystem::path workingDirectory;  // empty: the caller's
  std::vector<std::pair<std::string, std::string>> environment;  // set on top of the caller's environment
  double deadlineSeconds = 600;                                  // then the whole process group is killed
  const std::atomic<bool>* cancel = nullptr;                     // polled; true kills the process group
  std::size_t maxOutputBytes = 8u << 20;  // output past this is dropped (the tail is lost, not the head)
};

struct ProcessOutput {
  bool started = false;
  std::string startError;  // why it could not start (errno text), when !started
  int exitCode = -1;       // when it exited normally
  int signal = 0;          // when a signal ended it
  bool timedOut = false;
  bool cancelled = false;
  bool outputTruncated = false;
  std::string output;  // stdout and stderr, interleaved as written
  double seconds = 0;

  bool succeeded() const { return started && !timedOut && !cancelled && signal == 0 && exitCode == 0; }
  // "exited with status 2", "killed by SIGSEGV", "timed out after 300 s", "cancelled", "could not start: …"
  std::string describeEnd() const;
};

ProcessOutput runProcess(const ProcessSpec& spec);

}  // namespace ks::nvcc
