#include "core/supervisor/runner_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>

#include "core/protocol/json_codec.h"
#include "core/supervisor/line_splitter.h"
#include "core/supervisor/runner_supervisor.h"
#include "core/supervisor/server_socket.h"
#include "core/model/seconds_since.h"

namespace ks::supervisor {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kRequestLineSeconds = 10;  // a client that connects must send its request this soon

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// The request line a client sent, or nullopt when none came in time (or it hung up first).
std::optional<std::string> readRequestLine(int fd, std::size_t maxBytes) {
  LineSplitter splitter(maxBytes);
  const auto start = Clock::now();
  char buffer[65536];
  while (true) {
    const double left = kRequestLineSeconds - secondsSince(start);
    if (left <= 0) return std::nullopt;
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left * 1000) + 1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return std::nullopt;
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      for (auto& line : splitter.finish())
        if (!line.cut) return line.text;
      return std::nullopt;
    }
    for (auto& line : splitter.feed(std::string_view(buffer, static_cast<std::size_t>(n)))) {
      if (line.cut) return std::nullopt;  // longer than any request may be
      if (line.text.find_first_not_of(" \t\r") != std::string::npos) return line.text;
    }
  }
}

std::string describe(const RequestOutcome& outcome) {
  if (const auto* r = outcome.result()) return r->ok ? "ok" : "done, not ok (incorrect)";
  const protocol::ErrorInfo& e = outcome.error()->error;
  return std::string(protocol::errorKindName(e.kind)) + " error" +
         (e.phase.empty() ? "" : " during " + e.phase) + ": " + firstLine(e.message);
}

}  // namespace

struct RunnerServer::Impl {
  ServerOptions options;
  Log log;
  std::size_t maxLineBytes;
  RunnerSupervisor supervisor;
  int wake[2] = {-1, -1};
  std::atomic<bool> stopping{false};
  int warmUps = 0;

  Impl(SupervisorOptions runner, ServerOptions o, Log l)
      : options(std::move(o)),
        log(std::move(l)),
        maxLineBytes(runner.maxLineBytes),
        supervisor(std::move(runner)) {
    if (::pipe2(wake, O_CLOEXEC) != 0) wake[0] = wake[1] = -1;
  }
  ~Impl() {
    for (int fd : wake)
      if (fd >= 0) ::close(fd);
  }

  void say(const std::string& line) {
    if (log) log(line);
  }

  // Starts a runner (if none is up) and warms it, so the next client's request finds everything loaded.
  void warmUp() {
    protocol::Request request;
    request.id = "warm-up-" + std::to_string(++warmUps);
    request.op = protocol::Op::WarmUp;
    request.options.device = options.device;
    const auto start = Clock::now();
    const RequestOutcome outcome = supervisor.request(request);
    const auto info = supervisor.runnerInfo();
    const std::string runner =
        info ? info->runner + " (pid " + std::to_string(info->pid) + ")" : std::string("kscope-runner");
    if (const auto* r = outcome.result()) {
      std::string steps;
      for (const auto& step : r->result.value("steps", protocol::Json::array()))
        steps += (steps.empty() ? "" : ", ") + step.value("step", std::string("?")) + " " +
                 fixed(step.value("seconds", 0.0), 2) + " s";
      say(runner + " ready on " + r->result.value("device", std::string("?")) + ", warmed up in " +
          fixed(secondsSince(start), 1) + " s" + (steps.empty() ? "" : " (" + steps + ")"));
    } else {
      say(runner + ": warm-up failed, " + describe(outcome) +
          " (the runner starts again with the next request)");
    }
  }

  void answer(int fd, std::atomic<int>& served) {
    if (!peerIsThisUser(fd)) {
      say("refused a client that runs as another user");
      return;
    }
    const std::optional<std::string> line = readRequestLine(fd, maxLineBytes);
    if (!line) return;
    protocol::Decoded<protocol::Request> decoded = protocol::decodeRequest(*line);
    auto refuse = [&](const std::string& id, std::string message) {
      protocol::ErrorEvent e;
      e.id = id;
      e.error.kind = protocol::ErrorKind::Protocol;
      e.error.message = std::move(message);
      sendAll(fd, protocol::encodeEvent(protocol::Event{e}) + "\n");
      say("refused a request: " + e.error.message);
    };
    if (!decoded.value) return refuse(protocol::requestIdOf(*line), decoded.error);
    protocol::Request request = std::move(*decoded.value);
    if (request.op == protocol::Op::Shutdown)
      return refuse(request.id, "the server's runner stops with the server: stop kscope serve instead");

    // A client that hangs up (Ctrl-C in `kscope run`) cancels its request: nothing else reads the answer.
    // Once the outcome is written the client may hang up at once: that is no cancel.
    std::atomic<bool> done{false}, clientGone{false}, answered{false};
    std::thread watcher([&] {
      while (!done.load() && !answered.load()) {
        pollfd p{fd, POLLIN | POLLRDHUP, 0};
        if (::poll(&p, 1, 100) > 0 && !answered.load() &&
            (p.revents & (POLLIN | POLLRDHUP | POLLHUP | POLLERR))) {
          clientGone = true;
          supervisor.cancel();
          return;
        }
      }
    });
    const auto start = Clock::now();
    const std::string what = std::string(protocol::opName(request.op)) +
                             (request.task ? " " + request.task->key : "") +
                             (request.candidate ? " " + request.candidate->id : "");
    const RequestOutcome outcome = supervisor.request(std::move(request), [&](const protocol::Event& event) {
      if (std::holds_alternative<protocol::ResultEvent>(event) ||
          std::holds_alternative<protocol::ErrorEvent>(event)) {
        ++served;  // before the client can read it, so that it sees the count
        answered = true;
      }
      if (!clientGone.load() && !sendAll(fd, protocol::encodeEvent(event) + "\n")) clientGone = true;
    });
    done = true;
    watcher.join();
    say(what + ": " + (clientGone.load() ? "cancelled, the client went away" : describe(outcome)) + ", " +
        fixed(secondsSince(start), 2) + " s");
  }
};

RunnerServer::RunnerServer(SupervisorOptions runner, ServerOptions options, Log log)
    : impl_(std::make_unique<Impl>(std::move(runner), std::move(options), std::move(log))) {}

RunnerServer::~RunnerServer() = default;

int RunnerServer::serve() {
  Impl& s = *impl_;
  std::string error;
  const int listening = listenAt(s.options.socket, error);
  if (listening < 0) {
    s.say(error);
    return 2;
  }
  s.say("listening at " + s.options.socket.string());
  if (s.options.warmUp && !s.stopping.load()) s.warmUp();
  auto lastClient = Clock::now();
  while (!s.stopping.load()) {
    int timeoutMs = -1;
    if (s.options.idleExitSeconds > 0) {
      const double left = s.options.idleExitSeconds - secondsSince(lastClient);
      if (left <= 0) {
        s.say("no client for " + fixed(s.options.idleExitSeconds, 0) + " s: stopping");
        break;
      }
      timeoutMs = static_cast<int>(left * 1000) + 1;
    }
    pollfd fds[2] = {{listening, POLLIN, 0}, {s.wake[0], POLLIN, 0}};
    const int ready = ::poll(fds, s.wake[0] >= 0 ? 2 : 1, timeoutMs);
    if (ready < 0 && errno != EINTR) {
      s.say(std::string("poll: ") + std::strerror(errno));
      break;
    }
    if (ready <= 0 || !(fds[0].revents & POLLIN)) continue;
    const int client = ::accept4(listening, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    s.answer(client, served_);
    ::close(client);
    lastClient = Clock::now();
    // A runner that died with the request (crash, timeout, memory) is replaced and warmed now, between
    // clients, instead of during the next one.
    if (s.options.warmUp && !s.stopping.load() && !s.supervisor.runnerInfo()) s.warmUp();
  }
  ::close(listening);
  ::unlink(s.options.socket.c_str());
  s.supervisor.stopRunner();
  s.say("stopped after " + std::to_string(served_.load()) + " request(s)");
  return 0;
}

void RunnerServer::stop() {
  impl_->stopping = true;
  if (impl_->wake[1] >= 0) {
    char byte = 1;
    ssize_t ignored = ::write(impl_->wake[1], &byte, 1);
    (void)ignored;
  }
  impl_->supervisor.cancel();
}

}  // namespace ks::supervisor
