#pragma once
// An immutable string that copies share: one pointer wide (a std::string is four). A measurement's names —
// baseline, device, origin, timestamp, mode, outcome — repeat across a run's candidates; a million-candidate
// run holds two million measurements, and as std::string they took ~700 bytes a candidate (three of them
// longer than the 15 characters a std::string keeps inline). The run-format reader hands equal strings of
// nearby lines one shared copy (SharedStringCache). Reads like a const std::string (it converts to one).
#include <atomic>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

class SharedString {
 public:
  SharedString() noexcept = default;
  SharedString(std::string_view text);
  SharedString(const std::string& text) : SharedString(std::string_view(text)) {}
  SharedString(const char* text) : SharedString(std::string_view(text)) {}
  SharedString(const SharedString& other) noexcept : block_(other.block_) { retain(); }
  SharedString(SharedString&& other) noexcept : block_(other.block_) { other.block_ = nullptr; }
  SharedString& operator=(const SharedString& other) noexcept {
    SharedString copy(other);
    std::swap(block_, copy.block_);
    return *this;
  }
  SharedString& operator=(SharedString&& other) noexcept {
    std::swap(block_, other.block_);
    return *this;
  }
  SharedString& operator=(std::string_view text) { return *this = SharedString(text); }
  SharedString& operator=(const std::string& text) { return *this = SharedString(text); }
  SharedString& operator=(const char* text) { return *this = SharedString(text); }
  ~SharedString() { release(); }

  const std::string& str() const noexcept { return block_ ? block_->text : emptyString(); }
  operator const std::string&() const noexcept { return str(); }
  operator std::string_view() const noexcept { return str(); }

  bool empty() const noexcept { return str().empty(); }
  std::size_t size() const noexcept { return str().size(); }
  const char* c_str() const noexcept { return str().c_str(); }
  const char* data() const noexcept { return str().data(); }
  void clear() noexcept { *this = SharedString(); }
  bool starts_with(std::string_view prefix) const noexcept { return str().starts_with(prefix); }
  bool ends_with(std::string_view suffix) const noexcept { return str().ends_with(suffix); }
  std::size_t find(std::string_view what, std::size_t from = 0) const noexcept {
    return str().find(what, from);
  }
  // True when both name the same copy (then they are equal without comparing).
  bool sameCopy(const SharedString& other) const noexcept { return block_ == other.block_; }

  friend bool operator==(const SharedString& a, const SharedString& b) noexcept {
    return a.block_ == b.block_ || a.str() == b.str();
  }
  friend bool operator==(const SharedString& a, std::string_view b) noexcept { return a.str() == b; }
  friend bool operator==(const SharedString& a, const std::string& b) noexcept { return a.str() == b; }
  friend bool operator==(const SharedString& a, const char* b) noexcept { return a.str() == b; }
  friend std::strong_ordering operator<=>(const SharedString& a, const SharedString& b) noexcept {
    return a.str() <=> b.str();
  }
  friend std::strong_ordering operator<=>(const SharedString& a, std::string_view b) noexcept {
    return std::string_view(a.str()) <=> b;
  }
  friend std::string operator+(const SharedString& a, std::string_view b) { return a.str() + std::string(b); }
  friend std::string operator+(std::string_view a, const SharedString& b) { return std::string(a) + b.str(); }
  friend std::string operator+(const SharedString& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const std::string& a, const SharedString& b) { return a + b.str(); }
  friend std::string operator+(const SharedString& a, const char* b) { return a.str() + b; }
  friend std::string operator+(const char* a, const SharedString& b) { return a + b.str(); }
  friend std::ostream& operator<<(std::ostream& out, const SharedString& s) { return out << s.str(); }

 private:
  struct Block {
    std::atomic<std::uint32_t> references{1};
    bool immortal = false;  // the well-known names ("default", "recorded", ...): never counted nor freed
    std::string text;
  };
  static const std::string& emptyString() noexcept;
  void retain() const noexcept {
    if (block_ && !block_->immortal) block_->references.fetch_add(1, std::memory_order_relaxed);
  }
  void release() noexcept {
    if (block_ && !block_->immortal && block_->references.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete block_;
    block_ = nullptr;
  }
  static Block* wellKnown(std::string_view text) noexcept;

  Block* block_ = nullptr;
};

// Hands out one shared copy per distinct string among the last few it was asked for: a reader keeps one per
// thread and block of lines, so the names repeated on every line cost one copy, not one per measurement.
class SharedStringCache {
 public:
  SharedString get(std::string_view text);

 private:
  static constexpr std::size_t kSize = 16;
  std::vector<SharedString> recent_;
  std::size_t next_ = 0;
};

}  // namespace ks

template <>
struct std::hash<ks::SharedString> {
  std::size_t operator()(const ks::SharedString& s) const noexcept {
    return std::hash<std::string>{}(s.str());
  }
};
