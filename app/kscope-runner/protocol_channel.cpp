#include "app/kscope-runner/protocol_channel.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/protocol/json_codec.h"

namespace ks::runner {
namespace {

int privateCopy(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 3); }

}  // namespace

std::variant<ProtocolChannel, std::string> ProtocolChannel::open() {
  std::fflush(stdout);
  const int in = privateCopy(STDIN_FILENO);
  const int out = privateCopy(STDOUT_FILENO);
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (in < 0 || out < 0 || null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    return std::string("cannot set up the protocol descriptors: ") + std::strerror(errno);
  ::close(null);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // C code's printf now goes to stderr: keep it in step with it
  std::FILE* inFile = fdopen(in, "r");
  std::FILE* outFile = fdopen(out, "w");
  if (!inFile || !outFile) return std::string("cannot open the protocol streams: ") + std::strerror(errno);
  return ProtocolChannel(inFile, outFile);
}

std::variant<ProtocolChannel, std::string> ProtocolChannel::overSocket(int fd) {
  const int out = fcntl(fd, F_DUPFD_CLOEXEC, 3);
  std::FILE* inFile = fdopen(fd, "r");
  std::FILE* outFile = out >= 0 ? fdopen(out, "w") : nullptr;
  if (!inFile || !outFile) return std::string("cannot open the judge's channel: ") + std::strerror(errno);
  return ProtocolChannel(inFile, outFile);
}

ProtocolChannel::ProtocolChannel(ProtocolChannel&& other) noexcept : in_(other.in_), out_(other.out_) {
  other.in_ = nullptr;
  other.out_ = nullptr;
}

ProtocolChannel::~ProtocolChannel() { close(); }

void ProtocolChannel::close() {
  if (in_) std::fclose(in_);
  if (out_) std::fclose(out_);
  in_ = out_ = nullptr;
}

int ProtocolChannel::inFd() const { return in_ ? fileno(in_) : -1; }
int ProtocolChannel::outFd() const { return out_ ? fileno(out_) : -1; }

std::optional<std::string> ProtocolChannel::readLine() {
  std::string line;
  for (int c; (c = std::fgetc(in_)) != EOF;) {
    if (c == '\n') return line;
    line += static_cast<char>(c);
  }
  if (line.empty()) return std::nullopt;
  return line;
}

void ProtocolChannel::write(const protocol::Event& event) { writeLine(protocol::encodeEvent(event)); }

void ProtocolChannel::writeLine(const std::string& line) {
  const std::string data = line + "\n";
  std::fwrite(data.data(), 1, data.size(), out_);
  std::fflush(out_);
}

}  // namespace ks::runner
