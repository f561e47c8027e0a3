#include "core/model/program_text.h"

#include <limits>

namespace ks {
namespace {

// A text held in memory: the whole of it.
class MemoryText final : public TextSource {
 public:
  explicit MemoryText(std::string text) : text_(std::move(text)) {}
  std::string text(std::uint64_t offset, std::uint32_t length) const override {
    return text_.substr(static_cast<std::size_t>(offset), length);
  }
  std::size_t memoryBytes() const override { return text_.capacity(); }

 private:
  std::string text_;
};

}  // namespace

ProgramText::ProgramText(std::string text) {
  if (text.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error("a program text longer than 4 GiB");
  length_ = static_cast<std::uint32_t>(text.size());
  source_ = std::make_shared<const MemoryText>(std::move(text));
}

ProgramText::ProgramText(std::optional<std::string> text) {
  if (text) *this = ProgramText(std::move(*text));
}

std::string ProgramText::value() const {
  if (!source_) throw std::bad_optional_access();
  return source_->text(offset_, length_);
}

std::string ProgramText::valueOrEmpty() const noexcept {
  try {
    return source_ ? source_->text(offset_, length_) : std::string();
  } catch (...) {
    return {};
  }
}

bool ProgramText::inMemory() const noexcept {
  return source_ && dynamic_cast<const MemoryText*>(source_.get()) != nullptr;
}

bool operator==(const ProgramText& a, const ProgramText& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a.has_value()) return true;
  if (a.source_ == b.source_ && a.offset_ == b.offset_ && a.length_ == b.length_) return true;
  return a.value() == b.value();
}

}  // namespace ks
