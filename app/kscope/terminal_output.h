#pragma once
// Everything kscope prints goes through one filter: std::cout and std::cerr escape control characters
// (core/model/control_characters.h) on their way out, so text a candidate wrote — an error message, the
// tail of its stderr, a seed's message — cannot move the cursor, retitle the window or write the clipboard
// (OSC 52) of the terminal it is shown in. --json output passes unchanged: JSON carries no raw control
// characters, and the C1 and bidirectional controls it may carry come out as JSON's own \uNNNN escapes.
// kscope's own progress line is the one exception, written through terminalControl().
#include <iosfwd>
#include <string_view>

namespace ks::cli {

// Installs the filter on std::cout and std::cerr (main() calls it first thing); idempotent.
void escapeTerminalOutput();

// Writes `sequence` (kscope's own, e.g. kClearLine) to `stream` past the filter, after what the filter holds.
void terminalControl(std::ostream& stream, std::string_view sequence);

// Carriage return and "erase to the end of the line": the progress line's rewrite.
inline constexpr std::string_view kClearLine = "\r\033[K";

}  // namespace ks::cli
