#include "views/report/code_highlight.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace ks {
namespace {

constexpr const char* kKeywordStyle = "color:#7a3e9d;font-weight:bold";
constexpr const char* kStringStyle = "color:#2e7d32";
constexpr const char* kCommentStyle = "color:#8a8a8a;font-style:italic";
constexpr const char* kNumberStyle = "color:#b35900";
constexpr const char* kBuiltinStyle = "color:#1f5fa8";

constexpr std::array kPythonKeywords = {
    "False", "None",   "True",  "and",   "as",     "assert", "async", "await",    "break",  "class",
    "continue", "def", "del",   "elif",  "else",   "except", "finally", "for",    "from",   "global",
    "if",    "import", "in",    "is",    "lambda", "nonlocal", "not", "or",       "pass",   "raise",
    "return", "try",   "while", "with",  "yield"};
constexpr std::array kCppKeywords = {
    "auto",     "bool",     "break",   "case",     "char",      "const",    "constexpr", "continue",
    "default",  "do",       "double",  "else",     "enum",      "extern",   "float",     "for",
    "if",       "inline",   "int",     "long",     "namespace", "return",   "short",     "signed",
    "sizeof",   "static",   "struct",  "switch",   "template",  "typedef",  "typename",  "unsigned",
    "using",    "void",     "volatile", "while",   "__global__", "__device__", "__host__", "__shared__",
    "__restrict__", "__syncthreads", "half",   "size_t", "int64_t", "class",   "public",    "private"};
constexpr std::array kPythonBuiltins = {"self", "torch", "nn", "super", "range", "len", "print"};

template <std::size_t N>
bool contains(const std::array<const char*, N>& words, std::string_view word) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return word == w; });
}

bool identStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

void span(std::string& out, const char* style, std::string_view text) {
  if (text.empty()) return;
  out += "<span style=\"";
  out += style;
  out += "\">";
  out += htmlEscape(text);
  out += "</span>";
}

// Where a construct that runs over lines is still open at a line's end.
enum class Open { None, PyTriple1, PyTriple2, CBlock };

std::string highlightLine(std::string_view line, CodeLanguage language, Open& open) {
  const bool python = language == CodeLanguage::Python;
  std::string out;
  std::size_t i = 0;
  auto closeOpen = [&](std::string_view closer, const char* style) {
    const std::size_t end = line.find(closer, i);
    const std::size_t stop = end == std::string_view::npos ? line.size() : end + closer.size();
    span(out, style, line.substr(i, stop - i));
    if (end != std::string_view::npos) open = Open::None;
    i = stop;
  };
  if (open == Open::PyTriple1) closeOpen("'''", kStringStyle);
  if (open == Open::PyTriple2) closeOpen("\"\"\"", kStringStyle);
  if (open == Open::CBlock) closeOpen("*/", kCommentStyle);
  while (i < line.size()) {
    const char c = line[i];
    const std::string_view rest = line.substr(i);
    if ((python && c == '#') || (!python && rest.substr(0, 2) == "//")) {
      span(out, kCommentStyle, rest);
      break;
    }
    if (!python && rest.substr(0, 2) == "/*") {
      open = Open::CBlock;
      const std::size_t start = i;
      i += 2;
      const std::size_t end = line.find("*/", i);
      const std::size_t stop = end == std::string_view::npos ? line.size() : end + 2;
      if (end != std::string_view::npos) open = Open::None;
      span(out, kCommentStyle, line.substr(start, stop - start));
      i = stop;
      continue;
    }
    if (python && (rest.substr(0, 3) == "'''" || rest.substr(0, 3) == "\"\"\"")) {
      const std::string_view quote = rest.substr(0, 3);
      const std::size_t start = i;
      const std::size_t end = line.find(quote, i + 3);
      const std::size_t stop = end == std::string_view::npos ? line.size() : end + 3;
      if (end == std::string_view::npos) open = quote[0] == '\'' ? Open::PyTriple1 : Open::PyTriple2;
      span(out, kStringStyle, line.substr(start, stop - start));
      i = stop;
      continue;
    }
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < line.size() && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, line.size());
      span(out, kStringStyle, line.substr(i, j - i));
      i = j;
      continue;
    }
    if (!python && c == '#' && line.find_first_not_of(" \t") == i) {
      span(out, kKeywordStyle, rest);
      break;
    }
    if (identStart(c)) {
      std::size_t j = i;
      while (j < line.size() && identChar(line[j])) ++j;
      const std::string_view word = line.substr(i, j - i);
      const bool keyword = python ? contains(kPythonKeywords, word) : contains(kCppKeywords, word);
      if (keyword)
        span(out, kKeywordStyle, word);
      else if (python && contains(kPythonBuiltins, word))
        span(out, kBuiltinStyle, word);
      else
        out += htmlEscape(word);
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < line.size() && (identChar(line[j]) || line[j] == '.')) ++j;
      span(out, kNumberStyle, line.substr(i, j - i));
      i = j;
      continue;
    }
    out += htmlEscape(line.substr(i, 1));
    ++i;
  }
  return out;
}

}  // namespace

std::string htmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::vector<std::string> highlightLines(std::string_view code, CodeLanguage language) {
  std::vector<std::string> lines;
  Open open = Open::None;
  std::size_t start = 0;
  while (start < code.size()) {
    std::size_t end = code.find('\n', start);
    if (end == std::string_view::npos) end = code.size();
    std::string_view line = code.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(highlightLine(line, language, open));
    start = end + 1;
  }
  return lines;
}

}  // namespace ks
