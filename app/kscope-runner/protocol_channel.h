#pragma once
// The runner's protocol stream, kept apart from everything a program can touch. open() moves the original
// stdin and stdout to private descriptors (close-on-exec, so nvcc and ninja do not inherit them), points
// fd 0 at /dev/null (a program cannot read requests) and fd 1 at stderr (whatever Python, C or CUDA code
// prints lands in stderr, not among the events). Only this class writes events. The judge reads the client's
// lines from inFd() itself (it polls the executor too); the executor speaks over overSocket(link).
#include <cstdio>
#include <optional>
#include <string>
#include <variant>

#include "core/protocol/events.h"

namespace ks::runner {

class ProtocolChannel {
 public:
  // The channel, or why the descriptors could not be set up.
  static std::variant<ProtocolChannel, std::string> open();
  // The executor's channel to its judge: both directions over one socket (judge.h).
  static std::variant<ProtocolChannel, std::string> overSocket(int fd);
  ProtocolChannel(ProtocolChannel&& other) noexcept;
  ProtocolChannel& operator=(ProtocolChannel&&) = delete;
  ~ProtocolChannel();

  std::optional<std::string> readLine();  // nullopt at end of input
  void write(const protocol::Event& event);
  void writeLine(const std::string& line);  // one line as it is (the judge-executor link's sync reply)
  int inFd() const;
  int outFd() const;
  void close();  // closes both descriptors now (the executor drops the client's)

 private:
  ProtocolChannel(std::FILE* in, std::FILE* out) : in_(in), out_(out) {}
  std::FILE* in_;
  std::FILE* out_;
};

}  // namespace ks::runner
