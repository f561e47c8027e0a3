#include "app/kscope/terminal_output.h"

#include <iostream>
#include <streambuf>
#include <string>

#include "core/model/control_characters.h"

namespace ks::cli {
namespace {

// Forwards to `target` what is written to it, escaped; holds back only the start of a UTF-8 character
// that the next write may complete, and that until the next write or flush.
class EscapingBuffer final : public std::streambuf {
 public:
  explicit EscapingBuffer(std::streambuf* target) : target_(target) {}

  void writeRaw(std::string_view bytes) {
    drain(true);
    target_->sputn(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    target_->pubsync();
  }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return sync() == 0 ? traits_type::not_eof(c) : c;
    pending_ += traits_type::to_char_type(c);
    if (pending_.size() >= 4096 || pending_.back() == '\n') drain(false);
    return c;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    pending_.append(s, static_cast<std::size_t>(n));
    drain(false);
    return n;
  }
  int sync() override {
    drain(true);
    return target_->pubsync();
  }

 private:
  // Escapes and forwards pending_ but, unless `all`, the incomplete character at its end.
  void drain(bool all) {
    const std::size_t keep = all ? 0 : incompleteUtf8Tail(pending_);
    const std::string out = escapeControlCharacters(std::string_view(pending_).substr(0, pending_.size() - keep));
    target_->sputn(out.data(), static_cast<std::streamsize>(out.size()));
    pending_.erase(0, pending_.size() - keep);
  }

  std::streambuf* target_;
  std::string pending_;
};

EscapingBuffer* outBuffer = nullptr;
EscapingBuffer* errBuffer = nullptr;

}  // namespace

void escapeTerminalOutput() {
  if (outBuffer != nullptr) return;
  // Never freed: the streams use them until the process exits, static destructors included.
  outBuffer = new EscapingBuffer(std::cout.rdbuf());
  errBuffer = new EscapingBuffer(std::cerr.rdbuf());
  std::cout.rdbuf(outBuffer);
  std::cerr.rdbuf(errBuffer);
}

void terminalControl(std::ostream& stream, std::string_view sequence) {
  stream.flush();
  if (outBuffer != nullptr && stream.rdbuf() == outBuffer)
    outBuffer->writeRaw(sequence);
  else if (errBuffer != nullptr && stream.rdbuf() == errBuffer)
    errBuffer->writeRaw(sequence);
  else
    stream << sequence << std::flush;
}

}  // namespace ks::cli
