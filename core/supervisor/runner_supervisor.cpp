#include "core/supervisor/runner_supervisor.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <deque>
#include <mutex>
#include <vector>

#include "core/protocol/json_codec.h"
#include "core/protocol/request_clock.h"
#include "core/protocol/result_acceptance.h"
#include "core/sandbox/clean_environment.h"
#include "core/sandbox/descendants.h"
#include "core/supervisor/child_process.h"
#include "core/supervisor/line_splitter.h"
#include "core/supervisor/process_memory.h"
#include "core/supervisor/runner_cgroup.h"
#include "core/supervisor/tail_lines.h"
#include "core/model/seconds_since.h"

extern char** environ;

namespace ks::supervisor {
namespace {

using Clock = std::chrono::steady_clock;
using protocol::ErrorKind;

std::string formatSeconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::round(s * 10) / 10);
  return buf;
}

std::string mebibytes(std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

// "while timing", "while checking correctness"; before any phase event: "before answering request 7".
std::string during(const std::string& phase, const std::string& requestId) {
  if (phase.empty()) return "before answering request " + requestId;
  if (phase == "load") return "while loading the programs";
  if (phase == "build") return "while building";
  if (phase == "correctness") return "while checking correctness";
  if (phase == "profile") return "while profiling";
  if (phase == "seed-method") return "while evaluating by the seed's own method";
  return "while " + phase;
}

bool looksOutOfMemory(const std::string& text) {
  for (const char* sign : {"MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory"})
    if (text.find(sign) != std::string::npos) return true;
  return false;
}

// A line of the runner's as evidence: its first 300 bytes.
std::string quote(const std::string& line) {
  return line.size() <= 300 ? line : line.substr(0, 300) + "… (" + std::to_string(line.size()) + " bytes)";
}

// A request id as a folder name.
std::string folderName(const std::string& id) {
  std::string out;
  for (char c : id)
    out.push_back(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_');
  return out.empty() ? "request" : out;
}

// The runner's whole environment (docs/security.md): the allow-list of ours, the options' variables, the
// scratch root as the place it may write (KSCOPE_WRITABLE, read by its Landlock rules: the runner's working
// folder and every request's scratch lie in it), and its working folder as its TMPDIR, so that its own
// default scratch folders go where they are removed with that folder.
sandbox::EnvironmentList runnerEnvironment(const SupervisorOptions& options,
                                           const std::filesystem::path& cwd) {
  sandbox::EnvironmentList env = sandbox::cleanEnvironment(environ);
  for (const auto& [name, value] : options.environment) sandbox::setVariable(env, name, value);
  if (!options.scratchRoot.empty()) {
    std::error_code ec;
    std::string writable = std::filesystem::absolute(options.scratchRoot, ec).string();
    for (const auto& [name, value] : env)
      if (name == "KSCOPE_WRITABLE" && !value.empty()) writable += ":" + value;
    sandbox::setVariable(env, "KSCOPE_WRITABLE", writable);
    sandbox::setVariable(env, "TMPDIR", std::filesystem::absolute(cwd, ec).string());
  }
  return env;
}

}  // namespace

struct RunnerSupervisor::Impl {
  enum class LoopEnd { Done, Deadline, ChildEnded, Cancelled, Memory, LineTooLong, Processes };

  explicit Impl(SupervisorOptions o)
      : options(std::move(o)),
        stdoutLines(options.maxLineBytes),
        stderrLines(64 * 1024),
        tail(options.stderrTailLines) {
    if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) wake[0] = wake[1] = -1;
  }

  ~Impl() {
    stop();
    std::error_code ec;
    if (!options.scratchRoot.empty()) std::filesystem::remove(options.scratchRoot, ec);  // only when empty
    for (int fd : wake)
      if (fd >= 0) close(fd);
  }

  SupervisorOptions options;
  std::optional<ChildProcess> child;
  std::filesystem::path runnerDir;  // the running runner's working folder
  LineSplitter stdoutLines, stderrLines;
  TailLines tail;
  std::deque<std::string> queued;  // complete stdout lines not yet handled
  std::string pendingWrite;
  std::uint64_t lastResident = 0;
  // Whose memory counts: the executor its `ready` names when that is the runner's child (the process that
  // runs programs; its judge is the start-up image it shares, plus the lines it holds), else the runner.
  std::vector<pid_t> memoryPids;
  // The runner's tree as last sampled (every options.treePollSeconds): how many processes are below its judge,
  // and the resident memory of those that are not memoryPids (what programs started, in any session).
  Clock::time_point treeSampled{};
  std::size_t treeProcesses = 0, othersCounted = 0;
  std::uint64_t othersResident = 0, lastExecutorResident = 0;
  // The runner's own memory cgroup, where one could be made (runner_cgroup.h), and its OOM kills when the
  // request started.
  std::unique_ptr<RunnerCgroup> cgroup;
  std::uint64_t oomKillsAtStart = 0;
  std::string cgroupWhy;  // why the last runner has none
  bool stdoutOpen = false, stderrOpen = false;
  unsigned runnersStarted = 0, requestsSent = 0;
  std::atomic<bool> inFlight{false}, cancelRequested{false};
  int wake[2] = {-1, -1};
  mutable std::mutex readyMutex;
  std::optional<protocol::ReadyEvent> ready;

  void drainStderr() {
    char buf[65536];
    for (;;) {
      ssize_t n = stderrOpen ? read(child->stderrFd(), buf, sizeof buf) : 0;
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        for (auto& l : stderrLines.feed({buf, std::size_t(n)})) tail.add(std::move(l.text));
        continue;
      }
      if (n == 0) {
        stderrOpen = false;
        for (auto& l : stderrLines.finish()) tail.add(std::move(l.text));
      }
      return;  // EAGAIN: nothing more for now
    }
  }

  // Reads what stdout has; returns false on a line over the limit.
  bool drainStdout() {
    char buf[65536];
    for (;;) {
      ssize_t n = read(child->stdoutFd(), buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        for (auto& l : stdoutLines.feed({buf, std::size_t(n)})) {
          if (l.cut) return false;
          queued.push_back(std::move(l.text));
        }
        continue;
      }
      if (n == 0) {
        stdoutOpen = false;
        for (auto& l : stdoutLines.finish()) queued.push_back(std::move(l.text));
      }
      return true;
    }
  }

  void flushWrite() {
    while (!pendingWrite.empty() && child->stdinFd() >= 0) {
      ssize_t n =
          send(child->stdinFd(), pendingWrite.data(), pendingWrite.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n > 0) {
        pendingWrite.erase(0, std::size_t(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      pendingWrite.clear();  // EPIPE, ECONNRESET: it is gone; its end shows on stdout
    }
  }

  // The I/O loop: writes pendingWrite, reads stdout lines into onLine until it returns true, keeps the
  // stderr tail, and stops at the deadline, the child's end, a cancel or the memory limit.
  template <class OnLine, class SecondsLeft>
  LoopEnd loop(OnLine&& onLine, SecondsLeft&& secondsLeft, bool cancellable) {
    for (;;) {
      while (!queued.empty()) {
        std::string line = std::move(queued.front());
        queued.pop_front();
        if (onLine(line)) return LoopEnd::Done;
      }
      if (!stdoutOpen) return LoopEnd::ChildEnded;
      if (cancellable && cancelRequested.load()) return LoopEnd::Cancelled;
      const double left = secondsLeft();
      if (left <= 0) return LoopEnd::Deadline;
      const std::vector<pid_t> counted = memoryPids.empty() ? std::vector<pid_t>{child->pid()} : memoryPids;
      if ((options.maxProcesses > 0 || options.memoryLimit) && secondsSince(treeSampled) >= options.treePollSeconds) {
        treeSampled = Clock::now();
        const std::vector<pid_t> tree = sandbox::liveDescendantsOf(child->pid());
        treeProcesses = tree.size();
        if (options.maxProcesses > 0 && treeProcesses > options.maxProcesses) return LoopEnd::Processes;
        othersResident = 0;
        othersCounted = 0;
        if (options.memoryLimit)
          for (pid_t pid : tree)
            if (std::find(counted.begin(), counted.end(), pid) == counted.end()) {
              othersResident += residentBytes(pid).value_or(0);
              ++othersCounted;
            }
      }
      if (options.memoryLimit) {
        // The processes that run programs, now, and what they started, as last sampled: the limit covers the
        // runner's whole tree. A cgroup's OOM kill says the kernel found the tree over its limit first.
        std::uint64_t resident = 0;
        for (pid_t pid : counted) resident += residentBytes(pid).value_or(0);
        if (resident + othersResident > options.memoryLimit->bytes || cgroupHit()) {
          lastExecutorResident = resident;
          lastResident = resident + othersResident;
          return LoopEnd::Memory;
        }
      }
      pollfd fds[4];
      nfds_t n = 0;
      fds[n++] = {child->stdoutFd(), POLLIN, 0};
      if (stderrOpen) fds[n++] = {child->stderrFd(), POLLIN, 0};
      if (wake[0] >= 0) fds[n++] = {wake[0], POLLIN, 0};
      if (!pendingWrite.empty() && child->stdinFd() >= 0) fds[n++] = {child->stdinFd(), POLLOUT, 0};
      double slice = options.memoryLimit ? options.memoryPollSeconds : 0.25;
      int timeoutMs = int(std::ceil(std::max(0.001, std::min(left, slice)) * 1000));
      int ready = poll(fds, n, timeoutMs);
      if (ready < 0) {
        if (errno == EINTR) continue;
        return LoopEnd::ChildEnded;  // poll itself failed: treat the runner as lost
      }
      for (nfds_t i = 0; i < n; ++i) {
        if (!fds[i].revents) continue;
        if (fds[i].fd == wake[0]) {
          char buf[64];
          while (read(wake[0], buf, sizeof buf) > 0) {
          }
        } else if (fds[i].fd == child->stderrFd()) {
          drainStderr();
        } else if (fds[i].fd == child->stdoutFd()) {
          if (!drainStdout()) return LoopEnd::LineTooLong;
        } else {
          flushWrite();
        }
      }
    }
  }

  protocol::ErrorEvent makeError(const std::string& id, ErrorKind kind, std::string message,
                                 const std::string& phase) {
    protocol::ErrorEvent e;
    e.id = id;
    e.error.kind = kind;
    e.error.message = std::move(message);
    e.error.phase = phase;
    e.error.stderrTail = tail.text();
    return e;
  }

  // Kills the runner after something went wrong and describes it. `status` is filled for ChildEnded.
  protocol::ErrorEvent endRunner(LoopEnd end, const std::string& id, const std::string& phase, double waited,
                                 const std::string& context) {
    std::optional<ExitStatus> status;
    std::string stuck;  // a killed runner that would not go
    if (end == LoopEnd::ChildEnded || end == LoopEnd::Done) {
      status = child->waitOrKill(2);
    } else {
      child->terminate();  // the runner's judge ends what is below it and cleans up, else it is killed
      if (const ExitStatus killed = child->waitOrKill(0); killed.abandoned)
        stuck = "; kscope-runner " + killed.describe();
    }
    drainStderr();
    protocol::ErrorEvent e;
    switch (end) {
      case LoopEnd::Deadline:
        e = makeError(id, ErrorKind::Timeout,
                      "timed out after " + formatSeconds(waited) + " s " + context + stuck, phase);
        break;
      case LoopEnd::Cancelled:
        e = makeError(id, ErrorKind::Cancelled, "cancelled " + context, phase);
        break;
      case LoopEnd::Memory:
        e = makeError(id, ErrorKind::Memory, memoryMessage(context), phase);
        break;
      case LoopEnd::Processes:
        e = makeError(id, ErrorKind::Processes,
                      "kscope-runner's processes numbered " + std::to_string(treeProcesses) +
                          ", more than the limit of " + std::to_string(options.maxProcesses) + ", " + context +
                          "; they were stopped",
                      phase);
        break;
      case LoopEnd::LineTooLong:
        e = makeError(id, ErrorKind::Protocol,
                      "kscope-runner wrote a line longer than " + mebibytes(options.maxLineBytes) + " " +
                          context + "; it was stopped",
                      phase);
        break;
      case LoopEnd::ChildEnded:
      case LoopEnd::Done: {
        const bool outOfAddressSpace =
            options.memoryLimit && options.memoryLimit->addressSpace && looksOutOfMemory(tail.text());
        if (cgroupHit()) {  // the kernel ended a process of the runner's for its cgroup's limit
          e = makeError(id, ErrorKind::Memory, memoryMessage(context) + " (" + status->describe() + ")", phase);
        } else if (outOfAddressSpace) {
          e = makeError(id, ErrorKind::Memory,
                        "kscope-runner ran out of its " + mebibytes(options.memoryLimit->bytes) +
                            " memory limit " + context + " and " + status->describe(),
                        phase);
        } else {
          e = makeError(id, ErrorKind::Crash, "kscope-runner " + status->describe() + " " + context, phase);
        }
        if (status->signal) e.error.signal = status->signal;
        if (!status->signal) e.error.exitStatus = status->exitCode;
        break;
      }
    }
    forget();
    return e;
  }

  // Whether the kernel ended a process of the runner's cgroup since the request started.
  bool cgroupHit() const { return cgroup && cgroup->oomKills() > oomKillsAtStart; }

  // What the memory limit stopped, in words: what was counted, or what the kernel did.
  std::string memoryMessage(const std::string& context) const {
    const std::string limit = mebibytes(options.memoryLimit->bytes);
    if (cgroupHit()) {
      const std::uint64_t kills = cgroup->oomKills() - oomKillsAtStart;
      return "kscope-runner's processes needed more than the memory limit of " + limit + ", " + context +
             ": the kernel ended " + std::to_string(kills) + " of them for their cgroup's limit (" +
             cgroup->path().string() + "); it was stopped";
    }
    std::string used = "kscope-runner used " + mebibytes(lastResident);
    if (othersCounted > 0 && othersResident > 0)
      used += " (" + mebibytes(lastExecutorResident) + " itself, " + mebibytes(othersResident) + " in " +
              std::to_string(othersCounted) + " process(es) its programs started)";
    return used + ", more than the memory limit of " + limit + ", " + context + "; it was stopped";
  }

  void forget() {
    child.reset();
    cgroup.reset();  // kills whatever is left in it, in any session, and removes it
    memoryPids.clear();
    othersResident = lastExecutorResident = 0;
    othersCounted = 0;
    treeSampled = {};
    treeProcesses = 0;
    std::error_code ec;
    if (!runnerDir.empty() && !options.keepScratch) std::filesystem::remove_all(runnerDir, ec);
    runnerDir.clear();
    queued.clear();
    pendingWrite.clear();
    stdoutLines = LineSplitter(options.maxLineBytes);
    stderrLines = LineSplitter(64 * 1024);
    std::lock_guard lock(readyMutex);
    ready.reset();
  }

  // Starts a runner and waits for `ready`; an error event (with `id`) when it cannot.
  std::optional<protocol::ErrorEvent> start(const std::string& id) {
    tail.clear();
    std::error_code ec;
    const auto cwd = options.scratchRoot / ("runner-" + std::to_string(++runnersStarted));
    std::filesystem::create_directories(cwd, ec);
    runnerDir = cwd;
    if (ec)
      return makeError(id, ErrorKind::Crash,
                       "cannot create the runner's working folder " + cwd.string() + ": " + ec.message(), "");
    SpawnSpec spec;
    spec.argv.push_back(options.runner.string());
    spec.argv.insert(spec.argv.end(), options.arguments.begin(), options.arguments.end());
    spec.environment = runnerEnvironment(options, cwd);
    spec.replaceEnvironment = true;
    spec.workingDirectory = cwd;
    if (options.memoryLimit && options.memoryLimit->addressSpace)
      spec.addressSpaceLimit = options.memoryLimit->bytes;
    if (options.memoryLimit && options.memoryCgroup) {
      // The kernel's hard limit sits a little above ours, so that our own count, which says what it saw,
      // normally ends the runner first; the cgroup catches what the count misses (files in /dev/shm, a
      // burst between two samples) and kills what is left in it whatever session it moved to.
      const std::uint64_t bytes = options.memoryLimit->bytes;
      cgroup = RunnerCgroup::create(bytes + std::max<std::uint64_t>(bytes / 10, std::uint64_t(64) << 20),
                                    &cgroupWhy);
      if (cgroup) spec.cgroupProcsFd = cgroup->procsFd();
    }
    auto [spawned, why] = ChildProcess::spawn(spec);
    if (!spawned) {
      cgroup.reset();
      return makeError(id, ErrorKind::Crash, "cannot start kscope-runner: " + why, "");
    }
    child = std::move(spawned);
    stdoutOpen = stderrOpen = true;

    std::optional<protocol::ReadyEvent> got;
    const auto started = Clock::now();
    LoopEnd end = loop(
        [&](const std::string& line) {
          auto decoded = protocol::decodeEvent(line);
          if (decoded.value)
            if (auto* r = std::get_if<protocol::ReadyEvent>(&*decoded.value)) {
              got = *r;
              return true;
            }
          tail.add("[stdout] " + line);
          return false;
        },
        [&] { return options.startDeadlineSeconds - secondsSince(started); }, true);
    if (end != LoopEnd::Done)
      return endRunner(end, id, "", secondsSince(started),
                       "waiting for kscope-runner to start (" + options.runner.string() + ")");
    if (got->protocol != protocol::kProtocolVersion) {
      child->killGroup();
      child->waitOrKill(0);
      forget();
      return makeError(id, ErrorKind::Protocol,
                       "kscope-runner speaks protocol " + std::to_string(got->protocol) +
                           " but this program speaks " + std::to_string(protocol::kProtocolVersion) +
                           ": install matching versions of both",
                       "");
    }
    memoryPids = {child->pid()};
    if (got->pid != child->pid() && got->pid > 0 && parentOf(static_cast<pid_t>(got->pid)) == child->pid())
      memoryPids = {static_cast<pid_t>(got->pid)};
    std::lock_guard lock(readyMutex);
    ready = got;
    return std::nullopt;
  }

  // The scratch root is writable to the runner's programs (KSCOPE_WRITABLE): what one wrote there beside the
  // runner's working folder (the request's own folder is gone already) goes after each request.
  // A runner's working folder (runner-<n>) or a folder holding one: the scratch root of another runner of this
  // client (poolRunnerOptions nests the lanes' roots in the client's), which is not this request's to remove.
  static bool isRunnerFolderName(const std::string& name) {
    return name.size() > 7 && name.rfind("runner-", 0) == 0 &&
           name.find_first_not_of("0123456789", 7) == std::string::npos;
  }
  static bool holdsARunner(const std::filesystem::path& entry) {
    std::error_code ec;
    if (!std::filesystem::is_directory(entry, ec)) return false;
    if (isRunnerFolderName(entry.filename().string())) return true;
    for (auto it = std::filesystem::directory_iterator(entry, ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
      if (isRunnerFolderName(it->path().filename().string()) && it->is_directory(ec)) return true;
    return false;
  }

  void removeStrays() {
    if (options.scratchRoot.empty() || options.keepScratch) return;
    std::error_code ec;
    for (auto it = std::filesystem::directory_iterator(options.scratchRoot, ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
      if (!runnerDir.empty() && it->path() == runnerDir) continue;
      if (holdsARunner(it->path())) continue;  // another supervisor's: a pool lane's root or its runner's folder
      std::error_code removeError;
      std::filesystem::remove_all(it->path(), removeError);
    }
  }

  // Whether the runner wrote something while no request was in flight (or its stdout closed): a runner
  // that answers nothing it was asked is not asked again.
  bool strayOutput() {
    if (!drainStdout()) return true;
    return !queued.empty() || !stdoutOpen;
  }

  RequestOutcome run(protocol::Request request, const EventSink& sink) {
    if (request.id.empty()) request.id = "r" + std::to_string(++requestsSent);
    const std::string id = request.id;
    auto finish = [&](protocol::ErrorEvent e) {
      if (sink) sink(protocol::Event{e});
      return RequestOutcome{std::move(e)};
    };
    if (child && (child->tryWait() || strayOutput()))
      forget();  // it died or spoke between requests: start afresh, not this request's fault
    if (!child)
      if (auto failed = start(id)) return finish(std::move(*failed));
    tail.clear();
    oomKillsAtStart = cgroup ? cgroup->oomKills() : 0;

    std::filesystem::path scratch;
    if (request.options.scratch.empty() && !options.scratchRoot.empty()) {
      scratch = options.scratchRoot / folderName(id);
      std::error_code ec;
      std::filesystem::create_directories(scratch, ec);
      if (ec)
        return finish(makeError(id, ErrorKind::Protocol,
                                "cannot create the scratch folder " + scratch.string() + ": " + ec.message(),
                                ""));
      request.options.scratch = scratch.string();
    }
    struct ScratchCleanup {
      const std::filesystem::path& dir;
      bool keep;
      ~ScratchCleanup() {
        std::error_code ec;
        if (!dir.empty() && !keep) std::filesystem::remove_all(dir, ec);
      }
    } cleanup{scratch, options.keepScratch};

    pendingWrite = protocol::encodeRequest(request) + "\n";
    std::string phase;
    // Before the first phase event, the answer deadline from the last sign of life; then the phase's, by our
    // own rule (phase_deadlines.h): what the runner announces can only shorten it.
    PhaseDeadlines deadlines(request, options.phaseLimits, options.maxPhaseSeconds);
    auto mark = Clock::now();
    std::optional<RequestOutcome> outcome;
    bool runnerExits = false;
    // Exactly one answer, checked against our own clock (result_acceptance.h); anything else on stdout is
    // tampering: the runner's judge writes nothing else.
    protocol::RequestClock clock;
    std::optional<std::string> tampering;
    LoopEnd end = loop(
        [&](const std::string& line) {
          auto decoded = protocol::decodeEvent(line);
          if (!decoded.value) {
            tampering = "kscope-runner wrote a line that is not a protocol event (" + decoded.error + "): " + quote(line);
            return true;
          }
          const protocol::Event& event = *decoded.value;
          clock.observe(event);
          if (auto* p = std::get_if<protocol::PhaseEvent>(&event); p && p->id == id) {
            phase = protocol::phaseName(p->phase);
            deadlines.enter(p->phase, p->deadlineS, Clock::now());
          } else if (auto* g = std::get_if<protocol::ProgressEvent>(&event); g && g->id == id) {
            if (phase.empty()) mark = Clock::now();  // no phase deadline yet: any sign of life counts
          } else if (auto* b = std::get_if<protocol::BuildEvent>(&event); b && b->id == id) {
            if (phase.empty()) mark = Clock::now();
          } else if (auto* r = std::get_if<protocol::ResultEvent>(&event); r && r->id == id) {
            if (auto why = protocol::rejectResult(request.op, *r, clock.finish())) {
              tampering = std::move(why);
              return true;
            }
            outcome = RequestOutcome{*r};
          } else if (auto* e = std::get_if<protocol::ErrorEvent>(&event); e && e->id == id) {
            outcome = RequestOutcome{*e};
            runnerExits = e->error.runnerExits;
          } else {
            tampering = std::string("kscope-runner wrote ") +
                        (std::holds_alternative<protocol::ReadyEvent>(event) ? "a second ready line"
                                                                            : "an event of another request") +
                        ": " + quote(line);
            return true;
          }
          // An answer that came after the kernel ended a process of the runner's for the memory limit is not
          // passed on: the limit was hit, and the verdict says so.
          if (outcome && cgroupHit()) return true;
          if (sink) sink(event);
          return outcome.has_value();
        },
        [&] {
          const auto left = deadlines.secondsLeft(Clock::now());
          return left ? *left : options.answerDeadlineSeconds - secondsSince(mark);
        },
        true);

    if (end == LoopEnd::Done && tampering) {  // its channel is not to be trusted again: a new runner next time
      protocol::ErrorEvent e = protocol::tamperingError(id, *tampering, phase);
      child->terminate();
      child->waitOrKill(0);
      drainStderr();
      e.error.stderrTail = tail.text();
      forget();
      return finish(std::move(e));
    }
    if (end == LoopEnd::Done && cgroupHit())  // the answer came past the memory limit (above)
      return finish(endRunner(LoopEnd::Memory, id, phase, secondsSince(mark), during(phase, id)));
    if (end == LoopEnd::Done) {
      if (runnerExits) {  // it said it cannot go on (an unusable CUDA context): let it exit, then forget it
        child->closeStdin();
        child->waitOrKill(5);
        forget();
      }
      return std::move(*outcome);
    }
    const double waited = deadlines.inPhase() ? deadlines.secondsInPhase(Clock::now()) : secondsSince(mark);
    return finish(endRunner(end, id, phase, waited, during(phase, id)));
  }

  void stop() {
    if (!child) return;
    protocol::Request shutdown;
    shutdown.id = "shutdown";
    shutdown.op = protocol::Op::Shutdown;
    pendingWrite = protocol::encodeRequest(shutdown) + "\n";
    const auto started = Clock::now();
    loop([](const std::string&) { return false; }, [&] { return 2.0 - secondsSince(started); }, false);
    child->waitOrKill(3);  // the judge gives its executor 2 s to exit, then kills what is below it
    forget();
  }
};

RunnerSupervisor::RunnerSupervisor(SupervisorOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {}

RunnerSupervisor::~RunnerSupervisor() = default;

RequestOutcome RunnerSupervisor::request(protocol::Request request, const EventSink& sink) {
  impl_->cancelRequested = false;
  impl_->inFlight = true;
  RequestOutcome outcome = impl_->run(std::move(request), sink);
  impl_->removeStrays();
  impl_->inFlight = false;
  impl_->cancelRequested = false;
  return outcome;
}

void RunnerSupervisor::cancel() {
  if (!impl_->inFlight.load()) return;
  impl_->cancelRequested = true;
  if (impl_->wake[1] >= 0) {
    char byte = 1;
    ssize_t ignored = write(impl_->wake[1], &byte, 1);
    (void)ignored;
  }
}

std::optional<protocol::ReadyEvent> RunnerSupervisor::runnerInfo() const {
  std::lock_guard lock(impl_->readyMutex);
  return impl_->ready;
}

void RunnerSupervisor::stopRunner() { impl_->stop(); }

}  // namespace ks::supervisor
