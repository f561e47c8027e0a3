#pragma once
// RunnerSupervisor: the one way clients (CLI, GUI worker thread) talk to kscope-runner
// (docs/runner-protocol.md). It starts the runner, waits for `ready`, sends one request at a time, hands
// every event to a callback, and ends each request with exactly one result or error event: a result only
// when the one acceptance rule (core/protocol/result_acceptance.h) accepts it against our own clock, and a
// `tampering` error instead of it, or of any other line on the runner's stdout (a line that is no event, an
// event of another request, output between requests), after which the runner is replaced. It enforces
// each phase's deadline by its own rule (phase_deadlines.h: a `phase` event names the phase, its deadline can
// only shorten it), kills a hung runner (every process below it, then its process group), reports a crash
// with its signal or exit status and the last stderr lines, enforces a memory limit, caps the processes of
// the runner's tree, and starts a fresh runner for the next request. Nothing the runner does makes it throw or end our process.
// Qt-free; request() blocks, so the GUI calls it from a worker thread and cancel() from the UI thread.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "core/protocol/events.h"
#include "core/protocol/request.h"
#include "core/supervisor/runner_client.h"
#include "core/supervisor/supervisor_options.h"

namespace ks::supervisor {

class RunnerSupervisor final : public RunnerClient {
 public:
  explicit RunnerSupervisor(SupervisorOptions options);
  ~RunnerSupervisor() override;  // shuts the runner down (a `shutdown` request, then SIGKILL after 2 s)
  RunnerSupervisor(const RunnerSupervisor&) = delete;
  RunnerSupervisor& operator=(const RunnerSupervisor&) = delete;

  // Sends `request` (starting a runner first if none is running) and returns how it ended. An empty
  // request.id is replaced by a fresh one. Not reentrant: one request at a time.
  RequestOutcome request(protocol::Request request, const EventSink& sink = {}) override;

  // From any thread, or a signal handler: ends the request in flight (the runner is killed; the outcome is
  // `cancelled`). A cancel with no request in flight does nothing.
  void cancel() override;

  // The `ready` line of the running runner; nullopt when none is running.
  std::optional<protocol::ReadyEvent> runnerInfo() const;

  // Stops the runner now (shutdown request, then SIGKILL). The next request starts a new one.
  void stopRunner();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ks::supervisor
