#pragma once
// RunnerServer: the core of `kscope serve`. It keeps one kscope-runner warm (started, `warm_up` sent, so
// torch, the CUDA context, cuBLAS, cuDNN and the profiler are up before anyone asks) and answers clients
// that connect to its Unix socket (ServerClient, server_client.h), one request at a time: a client writes one
// request line, the server hands it to its RunnerSupervisor and writes back every event of it, the
// outcome last, then closes the connection. Everything RunnerSupervisor guarantees holds, since it is the
// one that runs the request: deadlines, crash reports, the memory limit, a fresh runner after a crash (warmed
// again before the next client). A client that goes away mid-request cancels it. Kernels never run in this
// process, so a candidate that crashes its runner does not take the server down.
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "core/supervisor/supervisor_options.h"

namespace ks::supervisor {

struct ServerOptions {
  std::filesystem::path socket;  // where to listen (serverSocketPath() for the runner's settings)
  double idleExitSeconds = 0;    // stop after this long with no client; 0: never
  bool warmUp = true;            // send `warm_up` to each runner the server starts
  std::string device;            // the device warm_up prepares ("" = the runner's choice)
};

class RunnerServer {
 public:
  using Log = std::function<void(const std::string& line)>;  // one line per event worth telling a person

  RunnerServer(SupervisorOptions runner, ServerOptions options, Log log = {});
  ~RunnerServer();
  RunnerServer(const RunnerServer&) = delete;
  RunnerServer& operator=(const RunnerServer&) = delete;

  // Listens and answers clients until stop() or the idle deadline, then shuts the runner down and removes
  // the socket. 0 when it stopped as asked, 2 when it could not listen (the reason went to the log).
  int serve();

  // From any thread or a signal handler: serve() returns once the request in flight (if any) has ended.
  void stop();

  // Requests answered since serve() began (for tests and the log).
  int requestsServed() const { return served_.load(); }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::atomic<int> served_{0};
};

}  // namespace ks::supervisor
