#pragma once
// Telling text from binary: where a byte string stops being UTF-8 text.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ks {

struct NonTextByte {
  std::size_t offset = 0;  // 0-based byte offset
  std::string what;        // "a NUL byte", "an invalid UTF-8 byte 0xff"
};

// The first NUL byte or invalid UTF-8 sequence (its first byte; overlong forms, surrogates and code points
// above U+10FFFF are invalid). With `allowCutEnd`, a sequence cut short by the end of `bytes` is accepted:
// the bytes are a prefix of something longer.
std::optional<NonTextByte> findNonText(std::string_view bytes, bool allowCutEnd = false);

// Whether `bytes` (the start of a file) look like a binary file rather than text with a few bad bytes: a
// NUL byte, or invalid UTF-8 sequences in more than 1 of 64 bytes (and more than 8 of them). A JSONL file
// with one stray byte is text: its readers skip the line that holds it and load the rest.
// On a binary verdict, the first offending byte.
std::optional<NonTextByte> looksBinary(std::string_view bytes, bool allowCutEnd = false);

}  // namespace ks
