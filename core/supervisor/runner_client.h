#pragma once
// RunnerClient: what a client (the CLI, the GUI's worker thread) sends requests to. Two kinds:
// RunnerSupervisor, which starts and watches a kscope-runner of the client's own, and ServerClient, which
// hands the request to a `kscope serve` process that keeps one runner warm between clients
// (runner_server.h). Both end every request with exactly one result or error, and neither lets anything the
// runner does end the client's process.
#include <functional>
#include <variant>

#include "core/protocol/events.h"
#include "core/protocol/request.h"

namespace ks::supervisor {

// How a request ended: the runner's result, or an error (the runner's, or timeout/crash/memory/cancelled).
struct RequestOutcome {
  protocol::EndEvent end;

  bool isResult() const { return std::holds_alternative<protocol::ResultEvent>(end); }
  const protocol::ResultEvent* result() const { return std::get_if<protocol::ResultEvent>(&end); }
  const protocol::ErrorEvent* error() const { return std::get_if<protocol::ErrorEvent>(&end); }
};

class RunnerClient {
 public:
  // Every event of a request, in order, on the thread that called request(); the last is the outcome.
  using EventSink = std::function<void(const protocol::Event&)>;

  virtual ~RunnerClient() = default;

  // Sends `request` and returns how it ended. An empty request.id is replaced by a fresh one. Not
  // reentrant: one request at a time.
  virtual RequestOutcome request(protocol::Request request, const EventSink& sink = {}) = 0;

  // From any thread, or a signal handler (async-signal-safe): ends the request in flight; its outcome is
  // `cancelled`. A cancel with no request in flight does nothing.
  virtual void cancel() = 0;
};

}  // namespace ks::supervisor
