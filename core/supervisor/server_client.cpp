#include "core/supervisor/server_client.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

#include "core/protocol/json_codec.h"
#include "core/protocol/request_clock.h"
#include "core/protocol/result_acceptance.h"
#include "core/supervisor/line_splitter.h"
#include "core/supervisor/server_socket.h"

namespace ks::supervisor {
namespace {

constexpr std::size_t kMaxLineBytes = 256u << 20;  // as SupervisorOptions::maxLineBytes

RequestOutcome failure(const protocol::Request& request, protocol::ErrorKind kind, std::string message) {
  protocol::ErrorEvent e;
  e.id = request.id;
  e.error.kind = kind;
  e.error.message = std::move(message);
  return RequestOutcome{std::move(e)};
}

}  // namespace

std::unique_ptr<ServerClient> ServerClient::connect(const std::filesystem::path& socket, std::string* why) {
  std::string error;
  const int fd = connectTo(socket, error);
  if (fd < 0) {
    if (why) *why = error;
    return nullptr;
  }
  return std::unique_ptr<ServerClient>(new ServerClient(socket, fd));
}

ServerClient::~ServerClient() {
  if (const int fd = fd_.exchange(-1); fd >= 0) ::close(fd);
}

RequestOutcome ServerClient::request(protocol::Request request, const EventSink& sink) {
  if (request.id.empty()) request.id = "c" + std::to_string(getpid()) + "-" + std::to_string(++requests_);
  cancelled_ = false;
  auto finish = [&](RequestOutcome outcome) {
    if (sink) std::visit([&](const auto& end) { sink(protocol::Event{end}); }, outcome.end);
    return outcome;
  };
  int fd = fd_.load();
  if (fd < 0) {  // connect() made the first connection; each later request makes its own
    std::string error;
    fd = connectTo(socket_, error);
    if (fd < 0)
      return finish(failure(request, protocol::ErrorKind::Crash, "the runner server is gone: " + error));
    fd_ = fd;
  }
  struct Hangup {
    std::atomic<int>& fd;
    ~Hangup() {
      if (const int f = fd.exchange(-1); f >= 0) ::close(f);
    }
  } hangup{fd_};
  if (!sendAll(fd, protocol::encodeRequest(request) + "\n"))
    return finish(failure(request, protocol::ErrorKind::Crash,
                          "the runner server at " + socket_.string() + " closed the connection"));

  LineSplitter splitter(kMaxLineBytes);
  char buffer[65536];
  std::optional<RequestOutcome> outcome;
  protocol::RequestClock clock;  // ours: the server's acceptance is checked again against it
  std::string phase;
  auto onLine = [&](const LineSplitter::Line& line) {
    auto decoded = protocol::decodeEvent(line.text);
    if (line.cut || !decoded.value) return;
    const protocol::Event& event = *decoded.value;
    clock.observe(event);
    if (auto* p = std::get_if<protocol::PhaseEvent>(&event); p && p->id == request.id)
      phase = protocol::phaseName(p->phase);
    if (auto* r = std::get_if<protocol::ResultEvent>(&event); r && r->id == request.id) {
      if (auto why = protocol::rejectResult(request.op, *r, clock.finish())) {
        outcome = RequestOutcome{protocol::tamperingError(request.id, *why, phase)};
        if (sink) sink(protocol::Event{*outcome->error()});
        return;
      }
      outcome = RequestOutcome{*r};
    } else if (auto* e = std::get_if<protocol::ErrorEvent>(&event); e && e->id == request.id) {
      outcome = RequestOutcome{*e};
    }
    if (sink) sink(event);
  };
  while (!outcome) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR && !cancelled_.load()) continue;
    if (n <= 0) {
      for (const auto& line : splitter.finish())
        if (!outcome) onLine(line);
      break;
    }
    for (const auto& line : splitter.feed(std::string_view(buffer, static_cast<std::size_t>(n))))
      if (!outcome) onLine(line);
  }
  if (outcome) return std::move(*outcome);
  if (cancelled_.load()) return finish(failure(request, protocol::ErrorKind::Cancelled, "cancelled"));
  return finish(
      failure(request, protocol::ErrorKind::Crash,
              "the runner server at " + socket_.string() + " ended the connection before answering"));
}

void ServerClient::cancel() {
  cancelled_ = true;
  if (const int fd = fd_.load(); fd >= 0) ::shutdown(fd, SHUT_RDWR);  // async-signal-safe
}

}  // namespace ks::supervisor
