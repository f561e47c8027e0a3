#pragma once
// Text a candidate wrote (its errors, its stdout and stderr, its messages), made safe to show: every
// character that a terminal or a text view would act on instead of showing is written out as an escape.
// The one rule for it, used by kscope's terminal output and by the GUI.
//
//   C0 controls but tab and newline, DEL      -> \xNN   (ESC starts CSI/OSC sequences: colours, titles,
//                                                       OSC 52 clipboard writes; CR overwrites a line)
//   C1 controls U+0080-U+009F                 -> \uNNNN (8-bit CSI/OSC where a terminal honours them)
//   bidirectional overrides and isolates      -> \uNNNN (U+202A-U+202E, U+2066-U+2069: text that reads
//                                                       in another order than it is, "Trojan Source")
//   bytes that are not UTF-8                  -> \xNN
// Everything else, backslashes included, is kept as it is.
#include <array>
#include <string>
#include <string_view>

namespace ks {

std::string escapeControlCharacters(std::string_view text);

// The bidirectional overrides and isolates, with their UTF-8 bytes and Unicode's short names: what the
// escape above writes out, and what the code editor shows as a named mark instead of hiding.
struct BidiControl {
  char32_t codePoint;
  const char* utf8;
  const char* name;
};
inline constexpr std::array<BidiControl, 9> kBidiControls{{{0x202A, "\xe2\x80\xaa", "LRE"},
                                                           {0x202B, "\xe2\x80\xab", "RLE"},
                                                           {0x202C, "\xe2\x80\xac", "PDF"},
                                                           {0x202D, "\xe2\x80\xad", "LRO"},
                                                           {0x202E, "\xe2\x80\xae", "RLO"},
                                                           {0x2066, "\xe2\x81\xa6", "LRI"},
                                                           {0x2067, "\xe2\x81\xa7", "RLI"},
                                                           {0x2068, "\xe2\x81\xa8", "FSI"},
                                                           {0x2069, "\xe2\x81\xa9", "PDI"}}};

// How many bytes at the end of `text` are the start of a UTF-8 character that a later write may complete
// (0-3): a stream that escapes as it goes holds those back.
std::size_t incompleteUtf8Tail(std::string_view text);

}  // namespace ks
