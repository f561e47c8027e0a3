#include "core/json/nesting.h"

namespace ks::json {

std::optional<std::size_t> tooDeepAt(std::string_view text, std::size_t maxNesting) {
  std::size_t depth = 0;
  bool inString = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inString) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        inString = false;
      continue;
    }
    switch (c) {
      case '"':
        inString = true;
        break;
      case '[':
      case '{':
        if (++depth > maxNesting) return i + 1;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return std::nullopt;
}

std::string nestingError(std::string_view text, std::size_t maxNesting) {
  const auto at = tooDeepAt(text, maxNesting);
  if (!at) return {};
  return "nested deeper than " + std::to_string(maxNesting) + " levels (column " + std::to_string(*at) + ")";
}

}  // namespace ks::json
