#pragma once
// ServerClient: a RunnerClient that sends each request to a `kscope serve` process (runner_server.h)
// instead of starting a runner of its own, so a re-time finds torch, CUDA and the profiler already up. One
// connection per request. A cancel (Ctrl-C through InterruptCancel) hangs up, and the server cancels the
// request. If the server goes away mid-request the outcome is an error that says so.
#include <atomic>
#include <filesystem>
#include <memory>
#include <string>

#include "core/supervisor/runner_client.h"

namespace ks::supervisor {

class ServerClient final : public RunnerClient {
 public:
  // A client of the server listening at `socket`; nullptr, with the reason in `why`, when none answers.
  static std::unique_ptr<ServerClient> connect(const std::filesystem::path& socket,
                                               std::string* why = nullptr);
  ~ServerClient() override;

  RequestOutcome request(protocol::Request request, const EventSink& sink = {}) override;
  void cancel() override;

  const std::filesystem::path& socket() const { return socket_; }

 private:
  ServerClient(std::filesystem::path socket, int fd) : socket_(std::move(socket)), fd_(fd) {}

  std::filesystem::path socket_;
  std::atomic<int> fd_{-1};  // the connection of the request in flight (or the one connect() made)
  std::atomic<bool> cancelled_{false};
  int requests_ = 0;
};

}  // namespace ks::supervisor
