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
#include <string>
#include <string_view>

namespace ks {

std::string escapeControlCharacters(std::string_view text);

// How many bytes at the end of `text` are the start of a UTF-8 character that a later write may complete
// (0-3): a stream that escapes as it goes holds those back.
std::size_t incompleteUtf8Tail(std::string_view text);

}  // namespace ks
