#include "core/formats/utf8.h"

#include <cstdio>

namespace ks {
namespace {

NonTextByte invalidAt(std::string_view bytes, std::size_t i) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>(bytes[i])));
  return {i, std::string("an invalid UTF-8 byte ") + hex};
}

}  // namespace

std::optional<NonTextByte> findNonText(std::string_view bytes, bool allowCutEnd) {
  const std::size_t n = bytes.size();
  std::size_t i = 0;
  while (i < n) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == 0) return NonTextByte{i, "a NUL byte"};
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) lo = 0xA0;  // overlong
      if (c == 0xED) hi = 0x9F;  // surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) lo = 0x90;  // overlong
      if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
    } else {
      return invalidAt(bytes, i);
    }
    for (std::size_t k = 1; k < length; ++k) {
      if (i + k >= n) {
        if (allowCutEnd) return std::nullopt;
        return invalidAt(bytes, i);
      }
      const auto b = static_cast<unsigned char>(bytes[i + k]);
      const unsigned char min = k == 1 ? lo : 0x80, max = k == 1 ? hi : 0xBF;
      if (b < min || b > max) return invalidAt(bytes, i);
    }
    i += length;
  }
  return std::nullopt;
}

std::optional<NonTextByte> looksBinary(std::string_view bytes, bool allowCutEnd) {
  std::optional<NonTextByte> first;
  std::size_t invalid = 0;
  for (std::size_t at = 0; at < bytes.size();) {
    const auto bad = findNonText(bytes.substr(at), allowCutEnd);
    if (!bad) break;
    NonTextByte found{at + bad->offset, bad->what};
    if (!first) first = found;
    if (bytes[found.offset] == '\0') return found;
    ++invalid;
    at = found.offset + 1;
  }
  if (invalid > 8 && invalid * 64 > bytes.size()) return first;
  return std::nullopt;
}

}  // namespace ks
