#include "app/kscope-runner/judge.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "app/kscope-runner/executor_link.h"
#include "core/protocol/json_codec.h"
#include "core/protocol/request_clock.h"
#include "core/protocol/result_acceptance.h"
#include "core/sandbox/build_seals.h"
#include "core/sandbox/descendants.h"
#include "core/sandbox/request_leftovers.h"

namespace ks::runner {
namespace {

using Clock = std::chrono::steady_clock;
using protocol::ErrorEvent;
using protocol::Event;
using protocol::ResultEvent;

constexpr std::size_t kMaxExecutorLineBytes = 256u << 20;  // as the supervisor's limit on the runner's lines
constexpr std::size_t kQuoteBytes = 300;
constexpr double kExecutorExitGraceS = 2;  // after the end of its input, or after its channel closed

std::string quote(const std::string& line) {
  return line.size() <= kQuoteBytes ? line
                                    : line.substr(0, kQuoteBytes) + "… (" + std::to_string(line.size()) + " bytes)";
}

std::string randomToken() {
  unsigned char bytes[16] = {};
  std::size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char b : bytes) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  // Never a token the executor could know in advance, even where getrandom failed.
  return out + "-" + std::to_string(Clock::now().time_since_epoch().count());
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

// Kills every process below the judge but `except`, and says so on stderr.
void killBelow(const std::vector<pid_t>& except, const std::string& when) {
  const sandbox::KillReport report = sandbox::killDescendants(except);
  if (report.killed > 0)
    std::fprintf(stderr, "kscope-runner: killed %d process(es) left running %s\n", report.killed, when.c_str());
  for (pid_t pid : report.alive) std::fprintf(stderr, "kscope-runner: process %d survived SIGKILL\n", int(pid));
}

// Ends this process the way the executor ended: the same exit status, or the same signal (no core file:
// the executor's is the one that matters).
[[noreturn]] void endLike(int status) {
  std::fflush(nullptr);
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const rlimit none{0, 0};
    setrlimit(RLIMIT_CORE, &none);
    std::signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, nullptr);
    raise(sig);
    _exit(128 + sig);
  }
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

bool sendAll(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Lines of one descriptor, read as they come (poll first).
class LineReader {
 public:
  LineReader(int fd, std::size_t maxBytes) : fd_(fd), max_(maxBytes) {}

  // Reads once; false at the end of input or on a read error.
  bool fill() {
    char buf[65536];
    for (;;) {
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      buffer_.append(buf, static_cast<std::size_t>(n));
      return true;
    }
  }
  std::optional<std::string> next() {
    const auto nl = buffer_.find('\n');
    if (nl == std::string::npos) return std::nullopt;
    std::string line = buffer_.substr(0, nl);
    buffer_.erase(0, nl + 1);
    return line;
  }
  bool hasLine() const { return buffer_.find('\n') != std::string::npos; }
  bool tooLong() const { return max_ > 0 && buffer_.size() > max_ && buffer_.find('\n') == std::string::npos; }
  std::string rest() { return std::exchange(buffer_, {}); }  // an unterminated last line

 private:
  int fd_;
  std::size_t max_;
  std::string buffer_;
};

class Judge {
 public:
  Judge(ProtocolChannel& client, int link, pid_t executor, JudgeSettings settings, int stopSignals)
      : client_(client), link_(link), executor_(executor), settings_(std::move(settings)), stopSignals_(stopSignals),
        fromClient_(client.inFd(), 0), fromExecutor_(link, kMaxExecutorLineBytes) {}

  // No process outlives the runner, and nothing the request in flight wrote outside its scratch folder
  // stays (docs/security.md): whatever is left below the judge when it ends (the executor's children,
  // daemons re-parented to this subreaper, one an `atexit` handler started while the executor shut down)
  // is killed before the judge goes, because once it is gone they belong to init.
  void endEverything() {
    killBelow({}, "at the runner's end");
    if (current_) cleanUp(*current_);
  }

  int run() {
    if (const std::optional<int> end = awaitReady()) return *end;
    for (;;) {
      while (!current_) {  // the next request, one at a time
        std::optional<std::string> line = fromClient_.next();
        if (!line && !clientOpen_) {
          std::string last = fromClient_.rest();
          if (last.empty()) return endOfInput();
          line = std::move(last);
        }
        if (!line) break;
        if (const std::optional<int> end = onClientLine(*line)) return *end;
      }
      pollfd fds[3];
      nfds_t n = 0;
      if (!current_ && clientOpen_) fds[n++] = {client_.inFd(), POLLIN, 0};
      if (executorRunning_) fds[n++] = {link_, POLLIN, 0};
      if (stopSignals_ >= 0) fds[n++] = {stopSignals_, POLLIN, 0};
      if (n == 0) return endOfInput();
      if (poll(fds, n, -1) < 0) {
        if (errno == EINTR) continue;
        std::fprintf(stderr, "kscope-runner: poll failed\n");
        return 1;
      }
      for (nfds_t i = 0; i < n; ++i) {
        if (!fds[i].revents) continue;
        if (fds[i].fd == stopSignals_) {  // the client stops the runner (a deadline, a cancel, a limit)
          stopExecutor(0);
          return 128 + SIGTERM;
        }
        if (fds[i].fd == link_) {
          const bool open = fromExecutor_.fill();
          while (std::optional<std::string> line = fromExecutor_.next())
            if (const std::optional<int> end = onExecutorLine(*line)) return *end;
          if (fromExecutor_.tooLong())
            return tamper("its executor wrote a line longer than " + std::to_string(kMaxExecutorLineBytes >> 20) +
                          " MiB");
          if (!open)
            if (const std::optional<int> end = executorEnded()) return *end;
        } else if (!fromClient_.fill()) {
          clientOpen_ = false;
        }
      }
    }
  }

 private:
  struct InFlight {
    std::string id;
    protocol::Op op;
    protocol::RequestClock clock;
    std::string phase;
    std::optional<Event> answer;
    Clock::time_point answeredAt;
    std::string token;  // the sync token sent after the answer
    std::optional<sandbox::RequestLeftovers> leftovers;  // what was outside scratch when it started
  };

  ProtocolChannel& client_;
  int link_;
  pid_t executor_;
  JudgeSettings settings_;
  int stopSignals_;  // a signalfd for SIGTERM, or -1
  bool executorRunning_ = true, clientOpen_ = true;
  LineReader fromClient_, fromExecutor_;
  std::optional<InFlight> current_;
  std::string lastAnswered_;
  std::optional<std::string> betweenRequests_;  // what the executor wrote while no request ran

  // The executor's `ready` becomes ours, with its pid (the process that runs programs and holds memory).
  std::optional<int> awaitReady() {
    for (;;) {
      if (std::optional<std::string> line = fromExecutor_.next()) {
        const protocol::Decoded<Event> decoded = protocol::decodeEvent(*line);
        const auto* ready = decoded.value ? std::get_if<protocol::ReadyEvent>(&*decoded.value) : nullptr;
        if (!ready) {
          std::fprintf(stderr, "kscope-runner: the executor wrote %s before it was ready\n", quote(*line).c_str());
          stopExecutor(0);
          return 1;
        }
        client_.write(protocol::ReadyEvent{protocol::kProtocolVersion, ready->runner, executor_});
        return std::nullopt;
      }
      pollfd fds[2] = {{link_, POLLIN, 0}, {stopSignals_, POLLIN, 0}};
      if (poll(fds, stopSignals_ >= 0 ? 2 : 1, -1) < 0 && errno != EINTR) return 1;
      if (stopSignals_ >= 0 && fds[1].revents) {  // the client gave up waiting for it
        stopExecutor(0);
        return 128 + SIGTERM;
      }
      if (!fds[0].revents) continue;
      if (!fromExecutor_.fill() && !fromExecutor_.hasLine()) endAs(reap(kExecutorExitGraceS).first);
    }
  }

  std::optional<int> onClientLine(const std::string& line) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;
    protocol::Decoded<protocol::Request> decoded = protocol::decodeRequest(line);
    if (!decoded.value) {
      protocol::ErrorInfo e;
      e.kind = protocol::ErrorKind::Protocol;
      e.message = decoded.error;
      client_.write(ErrorEvent{protocol::requestIdOf(line), e});
      return std::nullopt;
    }
    const protocol::Request& request = *decoded.value;
    if (betweenRequests_) {
      client_.write(protocol::tamperingError(request.id, *betweenRequests_, ""));
      return kExitTampering;
    }
    if (request.op == protocol::Op::Shutdown) {
      client_.write(ResultEvent{request.id, true, protocol::Json::object()});
      stopExecutor(kExecutorExitGraceS);
      return 0;
    }
    current_ = InFlight{request.id, request.op, protocol::RequestClock(), "", std::nullopt, {}, "", std::nullopt};
    if (request.op == protocol::Op::Evaluate || request.op == protocol::Op::Build)  // the ops that run programs
      current_->leftovers.emplace(placesFor(request));
    // The line as the client wrote it (it decoded): what was left out stays left out (trials, ...).
    sendAll(link_, line + "\n");  // a failure shows as the executor's end
    return std::nullopt;
  }

  std::optional<int> onExecutorLine(const std::string& line) {
    if (!current_) {
      if (betweenRequests_) return std::nullopt;  // the first line is the evidence; the executor is gone
      betweenRequests_ = "after answering request \"" + lastAnswered_ + "\", its executor wrote " + quote(line) +
                         " (a program of an earlier request left code running there); it was stopped";
      stopExecutor(0);
      return std::nullopt;
    }
    InFlight& c = *current_;
    if (const std::optional<std::string> token = syncReplyToken(line)) {
      if (c.token.empty() || *token != c.token)
        return tamper("its executor wrote a sync reply it was not asked for: " + quote(line));
      return deliver();
    }
    const protocol::Decoded<Event> decoded = protocol::decodeEvent(line);
    if (!decoded.value)
      return tamper("its executor wrote a line that is not a protocol event (" + decoded.error + "): " + quote(line));
    const Event& event = *decoded.value;
    if (std::holds_alternative<protocol::ReadyEvent>(event))
      return tamper("its executor wrote a second ready line: " + quote(line));
    const std::string id = std::visit(
        [](const auto& e) -> std::string {
          if constexpr (requires { e.id; }) return e.id;
          return {};
        },
        event);
    if (id != c.id)
      return tamper("its executor wrote an event of request \"" + id + "\" while request \"" + c.id +
                    "\" ran: " + quote(line));
    const bool answer = std::holds_alternative<ResultEvent>(event) || std::holds_alternative<ErrorEvent>(event);
    if (c.answer)
      return tamper(std::string("its executor wrote ") + (answer ? "a second answer" : "an event after its answer") +
                    ": " + quote(line));
    if (!answer) {
      c.clock.observe(event);
      if (const auto* p = std::get_if<protocol::PhaseEvent>(&event)) c.phase = protocol::phaseName(p->phase);
      client_.write(event);
      return std::nullopt;
    }
    c.answer = event;
    c.answeredAt = Clock::now();
    if (const auto* e = std::get_if<ErrorEvent>(&event); e && e->error.runnerExits) {
      // The executor cannot go on (an unusable CUDA context) and exits without reading the sync: pass the
      // error on and end as it does.
      client_.write(event);
      endAs(reap(10).first);
    }
    c.token = randomToken();
    sendAll(link_, syncRequestLine(c.token) + "\n");
    return std::nullopt;
  }

  // The request is over and had exactly one answer: accept it or not.
  std::optional<int> deliver() {
    InFlight& c = *current_;
    if (const auto* r = std::get_if<ResultEvent>(&*c.answer))
      if (const std::optional<std::string> why = protocol::rejectResult(c.op, *r, c.clock.finish(c.answeredAt)))
        return tamper(*why);
    // No process outlives its request (docs/security.md): what the program started, setsid'd or
    // double-forked (re-parented to this subreaper) ends here, the executor itself stays; then what the
    // request left outside its scratch folder goes. Both before the answer: when the client has it, the
    // request is over.
    killBelow({executor_}, "by request " + c.id);
    cleanUp(c);
    client_.write(*c.answer);
    lastAnswered_ = c.id;
    current_.reset();
    return std::nullopt;
  }

  int tamper(const std::string& evidence) {
    client_.write(protocol::tamperingError(current_ ? current_->id : "", evidence, current_ ? current_->phase : ""));
    stopExecutor(0);
    return kExitTampering;
  }

  // The executor's channel closed: it ended, or closed it and is killed. Nothing when we stopped it already.
  std::optional<int> executorEnded() {
    if (!executorRunning_) return std::nullopt;
    const auto [status, killed] = reap(kExecutorExitGraceS);
    if (killed) {
      if (current_) return tamper("its executor closed its channel and did not exit");
      std::fprintf(stderr, "kscope-runner: the executor closed its channel between requests and was stopped\n");
      return kExitTampering;
    }
    // An executor exits 0 only at the end of its input, and the judge had not closed it: a program took over
    // or closed the executor's channel (a courier killed with the answer in hand), or ended the process
    // itself. An answer followed by any end is tampering too (docs/runner-protocol.md); which of the two a
    // courier manages is a race, and both end the runner with kExitTampering, not with the executor's status.
    const bool exitedZero = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    const std::string onlyAProgram = "; it does so only at the end of its input, which the judge had not closed: a "
                                     "program closed or took over its channel, or ended the process itself";
    if (current_ && current_->answer)
      return tamper("its executor wrote an answer and then " + describe(status) +
                    (exitedZero ? " in the middle of the request" + onlyAProgram : " before the request was over"));
    if (current_ && exitedZero)
      return tamper("its executor exited with status 0 in the middle of the request without answering" + onlyAProgram);
    endAs(status);
  }

  // Ends the judge like the executor, after everything below it.
  [[noreturn]] void endAs(int status) {
    endEverything();
    endLike(status);
  }

  // Where `request` can leave files outside its scratch folder (core/sandbox/request_leftovers.h): the
  // cache it names (as the engine reads it: "~/" is $HOME), else the executor's.
  sandbox::LeftoverPlaces placesFor(const protocol::Request& request) const {
    namespace fs = std::filesystem;
    sandbox::LeftoverPlaces p;
    fs::path cache = settings_.defaultCacheRoot;
    if (const std::string& c = request.options.cache; !c.empty()) {
      const char* home = std::getenv("HOME");
      cache = home && (c == "~" || c.rfind("~/", 0) == 0) ? fs::path(home) / c.substr(c.size() > 1 ? 2 : 1) : fs::path(c);
    }
    std::error_code ec;
    p.cacheRoot = fs::absolute(cache, ec);
    p.sealLog = sandbox::buildSealsPath(p.cacheRoot);
    p.executor = executor_;
    p.cacheQuotaBytes = settings_.cacheQuotaBytes;
    return p;
  }

  void cleanUp(InFlight& c) {
    if (!c.leftovers) return;
    const sandbox::LeftoverReport r = c.leftovers->cleanUp();
    c.leftovers.reset();
    if (r.removed.empty()) return;
    std::string what;
    for (std::size_t i = 0; i < r.removed.size() && i < 5; ++i) what += (i ? ", " : "") + r.removed[i];
    if (r.removed.size() > 5) what += ", and " + std::to_string(r.removed.size() - 5) + " more";
    std::fprintf(stderr, "kscope-runner: removed %llu MiB request %s left outside its scratch folder%s: %s\n",
                 static_cast<unsigned long long>(r.bytes >> 20), c.id.c_str(),
                 r.overQuota ? " (more than its build cache quota)" : "", what.c_str());
  }

  int endOfInput() {
    stopExecutor(kExecutorExitGraceS);
    return betweenRequests_ ? kExitTampering : 0;
  }

  // Ends the executor: closes its channel, waits up to `graceS` for it to exit, then kills it.
  void stopExecutor(double graceS) {
    if (!executorRunning_) return;
    ::shutdown(link_, SHUT_RDWR);
    reap(graceS);
  }

  // Waits up to `graceS` for the executor to exit, then kills and reaps it. {status, killed by us}.
  std::pair<int, bool> reap(double graceS) {
    executorRunning_ = false;
    int status = 0;
    const auto until = Clock::now() + std::chrono::duration<double>(graceS);
    for (;;) {
      const pid_t r = waitpid(executor_, &status, WNOHANG);
      if (r == executor_) return {status, false};
      if (r < 0 && errno != EINTR) return {status, false};
      if (Clock::now() >= until) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill(executor_, SIGKILL);
    while (waitpid(executor_, &status, 0) < 0 && errno == EINTR) {
    }
    return {status, true};
  }
};

}  // namespace

int runJudge(ProtocolChannel& client, int link, pid_t executor, JudgeSettings settings) {
  // SIGTERM from the client (a deadline, a cancel, a limit) is read in the poll loop, so the judge can end
  // what is below it and clean up before it goes; the client's SIGKILL follows if it does not.
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigprocmask(SIG_BLOCK, &term, nullptr);
  const int stopSignals = signalfd(-1, &term, SFD_CLOEXEC);
  if (stopSignals < 0) {
    sigprocmask(SIG_UNBLOCK, &term, nullptr);  // unread, SIGTERM ends the judge at once, as it used to
  } else {
    // The client's death, too: the runner was spawned to get SIGKILL then (PR_SET_PDEATHSIG), which would
    // leave what is below the judge to init. A SIGTERM read here ends it all first.
    const pid_t parent = getppid();
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) raise(SIGTERM);  // it died before the prctl took
  }
  Judge judge(client, link, executor, std::move(settings), stopSignals);
  const int status = judge.run();
  judge.endEverything();
  return status;
}

}  // namespace ks::runner
