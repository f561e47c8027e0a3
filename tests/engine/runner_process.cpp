#include "tests/engine/runner_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "core/protocol/json_codec.h"

namespace ks::testing {

std::variant<RunnerProcess, std::string> RunnerProcess::start(const std::filesystem::path& binary,
                                                              const std::filesystem::path& stderrFile) {
  int toChild[2], fromChild[2];
  if (pipe2(toChild, O_CLOEXEC) != 0 || pipe2(fromChild, O_CLOEXEC) != 0) return std::string("pipe failed");
  const int err = open(stderrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (err < 0) return "cannot write " + stderrFile.string();
  const pid_t pid = fork();
  if (pid < 0) return std::string("fork failed");
  if (pid == 0) {
    dup2(toChild[0], STDIN_FILENO);
    dup2(fromChild[1], STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    execl(binary.c_str(), binary.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(toChild[0]);
  close(fromChild[1]);
  close(err);
  return RunnerProcess(pid, toChild[1], fromChild[0]);
}

RunnerProcess::RunnerProcess(RunnerProcess&& other) noexcept
    : pid_(other.pid_), in_(other.in_), out_(other.out_), buffer_(std::move(other.buffer_)) {
  other.pid_ = -1;
  other.in_ = other.out_ = -1;
}

RunnerProcess::~RunnerProcess() {
  if (in_ >= 0) close(in_);
  if (out_ >= 0) close(out_);
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

std::vector<std::string> RunnerProcess::protocolPipes() const {
  std::vector<std::string> out;
  for (int fd : {in_, out_}) {
    char target[256] = {};
    const ssize_t n = readlink(("/proc/self/fd/" + std::to_string(fd)).c_str(), target, sizeof target - 1);
    if (n > 0) out.emplace_back(target, static_cast<std::size_t>(n));
  }
  return out;
}

bool RunnerProcess::send(const std::string& line) {
  const std::string data = line + "\n";
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = write(in_, data.data() + done, data.size() - done);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::optional<std::string> RunnerProcess::readLine(double timeoutS) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutS);
  while (true) {
    if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;
    pollfd p{out_, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) return std::nullopt;
    char chunk[65536];
    const ssize_t n = read(out_, chunk, sizeof chunk);
    if (n <= 0) return std::nullopt;
    buffer_.append(chunk, static_cast<std::size_t>(n));
  }
}

std::variant<std::vector<protocol::Event>, std::string> RunnerProcess::eventsUntilDone(const std::string& id,
                                                                                       double timeoutS) {
  std::vector<protocol::Event> events;
  while (auto line = readLine(timeoutS)) {
    protocol::Decoded<protocol::Event> event = protocol::decodeEvent(*line);
    if (!event.value) return "not an event: " + event.error + "\n" + *line;
    events.push_back(*event.value);
    const auto* result = std::get_if<protocol::ResultEvent>(&*event.value);
    const auto* error = std::get_if<protocol::ErrorEvent>(&*event.value);
    if ((result && result->id == id) || (error && error->id == id)) return events;
  }
  return "no result or error for request " + id + " within " + std::to_string(timeoutS) + " s";
}

void RunnerProcess::closeInput() {
  if (in_ >= 0) close(in_);
  in_ = -1;
}

int RunnerProcess::wait() {
  int status = 0;
  if (pid_ <= 0 || waitpid(pid_, &status, 0) != pid_) return -1;
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace ks::testing
