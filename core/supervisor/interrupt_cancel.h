#pragma once
// For command-line clients: while an InterruptCancel lives, SIGINT and SIGTERM cancel the client's
// request in flight (the runner, in its own process group, does not see the terminal's Ctrl-C) instead of
// ending our process with the runner still running. The previous handlers come back on destruction.
// One at a time per process.
#include <csignal>

#include "core/supervisor/runner_client.h"

namespace ks::supervisor {

class InterruptCancel {
 public:
  explicit InterruptCancel(RunnerClient& client);
  ~InterruptCancel();
  InterruptCancel(const InterruptCancel&) = delete;
  InterruptCancel& operator=(const InterruptCancel&) = delete;

  bool interrupted() const;  // a signal arrived

 private:
  struct sigaction previousInt_ {
  }, previousTerm_{};
};

}  // namespace ks::supervisor
