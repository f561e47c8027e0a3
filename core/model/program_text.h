#pragma once
// A text that may live in the file it was read from rather than in memory: a candidate's program and its
// analysis. A million-candidate run file holds gigabytes of programs; the reader keeps where each one is
// (an offset and a length into the file, which stays open) and the text is read and decoded when someone
// asks for it (the code view, the static checks, a hash), one at a time. Small inputs and texts built in
// memory hold the text itself. Either way a ProgramText is immutable and cheap to copy (the text or the open
// file is shared), and reads like std::optional<std::string>: has_value() is "the file records a text",
// value() the text.
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ks {

// The text could not be read back: the file changed or went away under us, or its bytes there do not decode.
struct TextReadError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Where stored texts are read from. Implementations are thread-safe (the static checks read texts from
// several threads at once).
class TextSource {
 public:
  virtual ~TextSource() = default;
  // The text stored at [offset, offset + length) of the source, decoded. Throws TextReadError.
  virtual std::string text(std::uint64_t offset, std::uint32_t length) const = 0;
  // Bytes of memory the source itself holds (0 for an open file), for memory accounting.
  virtual std::size_t memoryBytes() const { return 0; }
};

class ProgramText {
 public:
  ProgramText() noexcept = default;  // no text
  ProgramText(std::nullopt_t) noexcept {}
  ProgramText(std::string text);  // held in memory
  ProgramText(const char* text) : ProgramText(std::string(text)) {}
  ProgramText(std::optional<std::string> text);
  // Stored in `source` at [offset, offset + length).
  ProgramText(std::shared_ptr<const TextSource> source, std::uint64_t offset, std::uint32_t length) noexcept
      : source_(std::move(source)), offset_(offset), length_(length) {}

  bool has_value() const noexcept { return source_ != nullptr; }
  explicit operator bool() const noexcept { return has_value(); }
  // No text, or an empty one (known without reading it).
  bool empty() const noexcept { return !source_ || length_ == 0; }

  // The text (read from its file when it is stored there). Throws std::bad_optional_access without a text
  // and TextReadError when it cannot be read back.
  std::string value() const;
  std::string operator*() const { return value(); }
  // `code->find(...)`: the text, held for the expression.
  struct Held {
    std::string text;
    const std::string* operator->() const { return &text; }
  };
  Held operator->() const { return {value()}; }
  std::string value_or(std::string fallback) const { return has_value() ? value() : std::move(fallback); }
  // The text, or "" when there is none or it cannot be read back (for a person: a tooltip, a search).
  std::string valueOrEmpty() const noexcept;
  std::optional<std::string> optional() const {
    return has_value() ? std::optional<std::string>(value()) : std::nullopt;
  }

  // True when the text is held in memory (not read from a file on demand).
  bool inMemory() const noexcept;
  // Bytes the text takes where it is stored (in the file: as encoded there).
  std::uint32_t storedBytes() const noexcept { return length_; }
  void reset() noexcept { *this = ProgramText(); }

  // Compares the texts (reading them when stored in a file).
  friend bool operator==(const ProgramText& a, const ProgramText& b);
  friend bool operator==(const ProgramText& a, std::nullopt_t) noexcept { return !a.has_value(); }
  friend bool operator==(const ProgramText& a, const std::string& b) {
    return a.has_value() && a.value() == b;
  }
  friend bool operator==(const ProgramText& a, const char* b) { return a.has_value() && a.value() == b; }

 private:
  std::shared_ptr<const TextSource> source_;
  std::uint64_t offset_ = 0;
  std::uint32_t length_ = 0;
};

}  // namespace ks
