#include "core/formats/cuda_source_header.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <system_error>

#include "core/model/text_trim.h"

namespace ks {
namespace {

constexpr std::array<std::string_view, 6> kKeys = {"entry", "reference", "inputs", "name", "level", "number"};
constexpr std::array<std::string_view, 9> kDtypes = {"half",  "bfloat16", "float", "double", "int8",
                                                     "uint8", "int32",    "int64", "bool"};
constexpr std::string_view kDirective = "kscope:";

bool isIdentifier(std::string_view s) {
  return !s.empty() && !std::isdigit(static_cast<unsigned char>(s.front())) &&
         std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool isKnownKey(std::string_view key) { return std::find(kKeys.begin(), kKeys.end(), key) != kKeys.end(); }

// Where a `key=` of a known key starts in `text` at or after `from`, preceded by whitespace or the start.
std::size_t nextPairStart(std::string_view text, std::size_t from) {
  for (std::size_t i = from; i < text.size(); ++i) {
    if (i > 0 && !std::isspace(static_cast<unsigned char>(text[i - 1]))) continue;
    const std::size_t eq = text.find('=', i);
    if (eq != std::string_view::npos && isKnownKey(text.substr(i, eq - i))) return i;
  }
  return std::string_view::npos;
}

std::optional<int> parseInt(std::string_view text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// "A:4096x4096:half" -> spec; nullopt and `error` set when malformed.
std::optional<CudaInputSpec> parseInput(std::string_view text, std::string& error) {
  const std::size_t c1 = text.find(':'), c2 = text.rfind(':');
  if (c1 == std::string_view::npos || c1 == c2) {
    error = "expected an input NAME:DIMS:DTYPE (e.g. A:4096x4096:half), got \"" + std::string(text) + "\"";
    return std::nullopt;
  }
  CudaInputSpec spec;
  spec.name = trimmed(text.substr(0, c1), kCSpaces);
  spec.dtype = trimmed(text.substr(c2 + 1), kCSpaces);
  const std::string_view dims = trimmed(text.substr(c1 + 1, c2 - c1 - 1), kCSpaces);
  if (!isIdentifier(spec.name)) {
    error = "expected an input name to be an identifier, got \"" + spec.name + "\"";
    return std::nullopt;
  }
  std::size_t start = 0;
  while (start <= dims.size()) {
    const std::size_t end = std::min(dims.find('x', start), dims.size());
    std::int64_t extent = 0;
    const std::string_view part = dims.substr(start, end - start);
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), extent);
    if (ec != std::errc() || ptr != part.data() + part.size() || extent <= 0) {
      error = "expected the shape of input \"" + spec.name +
              "\" to be positive sizes joined by 'x' (e.g. 64x128), got \"" + std::string(dims) + "\"";
      return std::nullopt;
    }
    spec.shape.push_back(extent);
    start = end + 1;
  }
  if (std::find(kDtypes.begin(), kDtypes.end(), spec.dtype) == kDtypes.end()) {
    error = "unknown dtype \"" + spec.dtype + "\" for input \"" + spec.name +
            "\"; expected one of half, bfloat16, float, double, int8, uint8, int32, int64, bool";
    return std::nullopt;
  }
  return spec;
}

class HeaderParser {
 public:
  explicit HeaderParser(std::vector<LoadIssue>& issues) : issues_(issues) {}

  void directive(std::string_view text, int line) {
    std::size_t at = 0;
    text = trimmed(text, kCSpaces);
    if (const std::size_t first = nextPairStart(text, 0); first != 0) {
      const std::size_t eq = text.find('=');
      error(line, eq == std::string_view::npos
                      ? "expected key=value pairs after \"kscope:\", got \"" + std::string(text) + "\""
                      : "unknown key \"" + std::string(trimmed(text.substr(0, eq), kCSpaces)) +
                            "\"; expected entry, reference, inputs, name, level or number");
      at = first;
    }
    while (at < text.size()) {
      const std::size_t eq = text.find('=', at);
      const std::size_t next = nextPairStart(text, eq + 1);
      const std::string_view key = text.substr(at, eq - at);
      const std::size_t valueEnd = next == std::string_view::npos ? std::string_view::npos : next - eq - 1;
      set(key, trimmed(text.substr(eq + 1, valueEnd), kCSpaces), line);
      at = next;
    }
  }

  CudaSourceHeader finish() {
    for (std::string_view key : {"entry", "reference", "inputs"})
      if (std::find(seen_.begin(), seen_.end(), key) == seen_.end())
        error(0, "missing \"// kscope: " + std::string(key) + "=...\" in the leading comment block");
    return std::move(header_);
  }

 private:
  void error(int line, std::string message) {
    issues_.push_back(LoadIssue{"", line, std::move(message), LoadIssue::Severity::Error});
  }

  void set(std::string_view key, std::string_view value, int line) {
    if (std::find(seen_.begin(), seen_.end(), key) != seen_.end()) {
      error(line, "key \"" + std::string(key) + "\" given twice; the first one is used");
      return;
    }
    seen_.push_back(key);
    if (value.empty()) {
      error(line, "key \"" + std::string(key) + "\" has no value");
    } else if (key == "entry") {
      if (!isIdentifier(value))
        error(line, "expected entry to be a C++ function name, got \"" + std::string(value) + "\"");
      else
        header_.entry = value;
    } else if (key == "reference") {
      header_.reference = value;
    } else if (key == "name") {
      header_.name = value;
    } else if (key == "inputs") {
      std::size_t start = 0;
      while (start <= value.size()) {
        const std::size_t end = std::min(value.find(',', start), value.size());
        std::string problem;
        if (auto spec = parseInput(trimmed(value.substr(start, end - start), kCSpaces), problem))
          header_.inputs.push_back(std::move(*spec));
        else
          error(line, std::move(problem));
        start = end + 1;
      }
    } else {  // level, number
      std::optional<int> number = parseInt(value);
      if (!number)
        error(line, "expected " + std::string(key) + " to be a non-negative integer, got \"" +
                        std::string(value) + "\"");
      (key == "level" ? header_.level : header_.number) = number;
    }
  }

  std::vector<LoadIssue>& issues_;
  CudaSourceHeader header_;
  std::vector<std::string_view> seen_;  // keys set so far (views into the source)
};

}  // namespace

CudaSourceHeader parseCudaSourceHeader(std::string_view source, std::vector<LoadIssue>& issues) {
  HeaderParser parser(issues);
  int line = 0;
  std::size_t start = 0;
  while (start < source.size()) {
    const std::size_t end = std::min(source.find('\n', start), source.size());
    const std::string_view text = trimmed(source.substr(start, end - start), kCSpaces);
    start = end + 1;
    ++line;
    if (text.empty()) continue;
    if (!text.starts_with("//")) break;  // the leading comment block ends at the first code line
    const std::string_view comment = trimmed(text.substr(2), kCSpaces);
    if (comment.starts_with(kDirective)) parser.directive(comment.substr(kDirective.size()), line);
  }
  return parser.finish();
}

}  // namespace ks
