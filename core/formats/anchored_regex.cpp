#include "core/formats/anchored_regex.h"

namespace ks {

bool anchoredSearch(const std::string& text, std::string_view literal, Anchor anchor,
                    const std::regex& pattern, std::smatch& m, std::size_t from) {
  std::size_t lastTried = std::string::npos;
  for (std::size_t at = text.find(literal, from); at != std::string::npos; at = text.find(literal, at + 1)) {
    std::size_t start = at;
    if (anchor == Anchor::AtWordStart)
      while (start > from && isRegexWordChar(text[start - 1])) --start;
    if (start == lastTried) continue;  // one word holding the literal twice: that start was tried in full
    lastTried = start;
    auto flags = std::regex_constants::match_continuous;
    if (start > 0) flags |= std::regex_constants::match_prev_avail;
    if (std::regex_search(text.begin() + static_cast<std::ptrdiff_t>(start), text.end(), m, pattern, flags))
      return true;
  }
  return false;
}

}  // namespace ks
