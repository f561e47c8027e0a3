#pragma once
// std::regex_search for patterns whose every match begins at a known place — where a literal occurs, or at
// the start of a word holding one — run only at those places. libstdc++'s regex_search tries the pattern
// at every character of the text; anchored at the literal's occurrences it finds the same leftmost match,
// with the same captures, and does no work on a line without the literal.
//
// The caller vouches for the anchor: `pattern` must be unable to match anywhere else (e.g. it starts with
// `\bliteral`, or with `\b\w*` before a word holding the literal). tests/formats/anchored_regex_test.cpp
// holds the equivalence to std::regex_search on every line of the CUDA-L2 release and on edge cases.
#include <cstddef>
#include <regex>
#include <string>
#include <string_view>

namespace ks {

// \w in the C locale: the characters a word (and \b's side of it) is made of, for scans that stand in for a
// pattern's \w and \b.
inline bool isRegexWordChar(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Where a match may begin relative to an occurrence of the literal.
enum class Anchor {
  AtLiteral,    // the match begins with the literal
  AtWordStart,  // the match begins at the start of the word (\w run) the literal's first character is in
};

// std::regex_search(text.begin() + from, text.end(), m, pattern, flags) with the character before `from`
// visible (as std::sregex_iterator's next search sees it), anchored as above.
bool anchoredSearch(const std::string& text, std::string_view literal, Anchor anchor,
                    const std::regex& pattern, std::smatch& m, std::size_t from = 0);

}  // namespace ks
