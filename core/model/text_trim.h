#pragma once
// Trimming blanks from both ends of a text: the one rule for it, for every layer (readers, checks, engine,
// views).
#include <string_view>

namespace ks {

// Spaces, tabs and line ends: what a line read from a file or a command's output may carry around its text.
inline constexpr std::string_view kBlanks = " \t\r\n";

// What std::isspace counts as space in the C locale: the blanks plus vertical tab and form feed, for text
// whose rule is "white space" as C and Python mean it (source comments, docstrings, lists a user typed).
inline constexpr std::string_view kCSpaces = " \t\n\v\f\r";

// `text` without the `blanks` at its start and end; empty when it holds nothing else. A view into `text`.
constexpr std::string_view trimmed(std::string_view text, std::string_view blanks = kBlanks) {
  const std::size_t first = text.find_first_not_of(blanks);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(blanks) - first + 1);
}

}  // namespace ks
