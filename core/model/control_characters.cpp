#include "core/model/control_characters.h"

#include <cstdint>
#include <cstdio>

namespace ks {
namespace {

// Length of the UTF-8 sequence `lead` starts (0: not a lead byte).
int sequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The code point of the valid sequence of `length` bytes at `p`, or -1 (overlong, surrogate, out of range).
std::int32_t decode(const unsigned char* p, int length) {
  std::int32_t cp = 0;
  switch (length) {
    case 2: cp = ((p[0] & 0x1F) << 6) | (p[1] & 0x3F); break;
    case 3: cp = ((p[0] & 0x0F) << 12) | ((p[1] & 0x3F) << 6) | (p[2] & 0x3F); break;
    case 4: cp = ((p[0] & 0x07) << 18) | ((p[1] & 0x3F) << 12) | ((p[2] & 0x3F) << 6) | (p[3] & 0x3F); break;
    default: return -1;
  }
  static constexpr std::int32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  return cp;
}

bool bidiControl(std::int32_t cp) {
  for (const BidiControl& c : kBidiControls)
    if (static_cast<std::int32_t>(c.codePoint) == cp) return true;
  return false;
}

void appendEscape(std::string& out, const char* format, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, format, value);
  out += buf;
}

}  // namespace

std::string escapeControlCharacters(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
        appendEscape(out, "\\x%02x", c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    const int length = sequenceLength(c);
    bool whole = length > 0 && i + static_cast<std::size_t>(length) <= n;
    for (int k = 1; whole && k < length; ++k) whole = continuation(p[i + k]);
    const std::int32_t cp = whole ? decode(p + i, length) : -1;
    if (cp < 0) {
      appendEscape(out, "\\x%02x", c);
      ++i;
    } else {
      if ((cp >= 0x80 && cp <= 0x9F) || bidiControl(cp))
        appendEscape(out, "\\u%04x", static_cast<unsigned>(cp));
      else
        out.append(text.substr(i, static_cast<std::size_t>(length)));
      i += static_cast<std::size_t>(length);
    }
  }
  return out;
}

std::size_t incompleteUtf8Tail(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  // The last lead byte within the final three bytes, if what follows it is continuation bytes only.
  for (std::size_t back = 1; back <= 3 && back <= n; ++back) {
    const unsigned char c = p[n - back];
    if (continuation(c)) continue;
    const int length = sequenceLength(c);
    return length > static_cast<int>(back) ? back : 0;
  }
  return 0;
}

}  // namespace ks
