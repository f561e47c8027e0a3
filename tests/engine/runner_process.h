#pragma once
// A kscope-runner child process for tests: requests written to its stdin, events read from its stdout with
// a deadline (a hung runner fails the test instead of hanging it), stderr collected in a file.
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "core/protocol/events.h"

namespace ks::testing {

class RunnerProcess {
 public:
  static std::variant<RunnerProcess, std::string> start(const std::filesystem::path& binary,
                                                        const std::filesystem::path& stderrFile);
  RunnerProcess(RunnerProcess&& other) noexcept;
  RunnerProcess& operator=(RunnerProcess&&) = delete;
  ~RunnerProcess();  // kills the child if it still runs

  bool send(const std::string& line);                    // appends the newline
  std::optional<std::string> readLine(double timeoutS);  // nullopt: end of output or timeout
  // Every event of request `id` up to and including its result or error (decoded), or an explanation.
  std::variant<std::vector<protocol::Event>, std::string> eventsUntilDone(const std::string& id,
                                                                          double timeoutS);
  void closeInput();
  pid_t pid() const { return pid_; }
  // What /proc shows for our ends of its stdin and stdout ("pipe:[123]"): the client's protocol pipes.
  std::vector<std::string> protocolPipes() const;
  int wait();  // exit status (128 + signal when killed by one)

 private:
  RunnerProcess(pid_t pid, int in, int out) : pid_(pid), in_(in), out_(out) {}
  pid_t pid_;
  int in_, out_;
  std::string buffer_;
};

}  // namespace ks::testing
