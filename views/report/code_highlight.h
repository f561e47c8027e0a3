#pragma once
// Syntax colouring for code in exported pages (`kscope report`, File ▸ Export, presentation mode): each line
// of a program as HTML with its keywords, strings, comments and numbers in coloured spans (inline styles, so
// that a browser and Qt's rich text show the same). Python (with the CUDA source of a load_inline string shown
// as a string) and C++/CUDA. The editors use QScintilla's lexers; this is for text that leaves the window.
#include <string>
#include <string_view>
#include <vector>

#include "core/model/candidate.h"

namespace ks {

// HTML-escapes `text` (&, <, >, ").
std::string htmlEscape(std::string_view text);

// One HTML fragment per line of `code` (no trailing newline; a final empty line after a '\n' is not kept).
// Strings and comments that run over lines (Python triple quotes, C block comments) are coloured on each.
std::vector<std::string> highlightLines(std::string_view code, CodeLanguage language);

}  // namespace ks
