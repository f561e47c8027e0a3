#include "core/formats/task_name.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "core/model/text_trim.h"

namespace ks {
namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), s.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         });
}

bool containsNoCase(std::string_view s, std::string_view word) {
  for (std::size_t i = 0; i + word.size() <= s.size(); ++i)
    if (startsWithNoCase(s.substr(i), word)) return true;
  return false;
}

bool isTopLevelCode(std::string_view line) {
  return !line.empty() && !std::isspace(static_cast<unsigned char>(line.front())) && line.front() != '#';
}

// The name of the class a `class X(...)` / `class X:` line defines, or empty.
std::string_view className(std::string_view line) {
  if (!line.starts_with("class ")) return {};
  std::string_view rest = trimmed(line.substr(6), kCSpaces);
  const std::size_t end = rest.find_first_of("(: ");
  return rest.substr(0, end);
}

// "Simple model that performs a Swish activation." -> "Swish activation"
std::string tidy(std::string_view text) {
  static constexpr std::array<std::string_view, 16> kPrefixes = {"a simple model that performs ",
                                                                 "a simple model that ",
                                                                 "simple model that performs ",
                                                                 "simple model that computes ",
                                                                 "simple model that ",
                                                                 "a model that performs ",
                                                                 "a model that computes ",
                                                                 "model that performs ",
                                                                 "model that computes ",
                                                                 "a model that ",
                                                                 "model that ",
                                                                 "performs ",
                                                                 "computes ",
                                                                 "initializes ",
                                                                 "initialize ",
                                                                 "implements "};
  static constexpr std::array<std::string_view, 3> kArticles = {"a ", "an ", "the "};
  text = trimmed(text, kCSpaces);
  for (std::string_view p : kPrefixes)
    if (startsWithNoCase(text, p)) {
      text.remove_prefix(p.size());
      break;
    }
  for (std::string_view a : kArticles)
    if (startsWithNoCase(text, a)) {
      text.remove_prefix(a.size());
      break;
    }
  while (!text.empty() && (text.back() == '.' || text.back() == ':')) text.remove_suffix(1);
  std::string name(trimmed(text, kCSpaces));
  if (name.size() > kMaxTaskNameChars) {
    std::size_t cut = name.rfind(' ', kMaxTaskNameChars - 3);
    if (cut == std::string::npos || cut < kMaxTaskNameChars / 2) cut = kMaxTaskNameChars - 3;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80)
      --cut;  // not inside a UTF-8 char
    name = name.substr(0, cut) + "...";
  }
  if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

bool isDescriptive(std::string_view line) {
  static constexpr std::array<std::string_view, 6> kSkipped = {":",       "@",          "args",
                                                               "returns", "parameters", "---"};
  line = trimmed(line, kCSpaces);
  if (line.empty()) return false;
  for (std::string_view s : kSkipped)
    if (startsWithNoCase(line, s)) return false;
  return std::any_of(line.begin(), line.end(),
                     [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
}

// The lines of the docstring that is the first statement after lines[header] (a block header ending in
// ':', possibly over several lines); empty when there is none.
std::vector<std::string_view> docstringAfter(const std::vector<std::string_view>& lines, std::size_t header) {
  std::size_t i = header;
  // a signature may span lines
  while (i < lines.size() && !trimmed(lines[i], kCSpaces).ends_with(":")) ++i;
  ++i;
  while (i < lines.size() && trimmed(lines[i], kCSpaces).empty()) ++i;
  if (i >= lines.size()) return {};
  std::string_view first = trimmed(lines[i], kCSpaces);
  if (first.starts_with("r\"\"\"") || first.starts_with("r'''")) first.remove_prefix(1);
  const std::string_view quote = first.starts_with("'''") ? "'''" : "\"\"\"";
  if (!first.starts_with(quote)) return {};
  std::vector<std::string_view> body;
  std::string_view text = first.substr(quote.size());
  while (true) {
    const std::size_t close = text.find(quote);
    body.push_back(text.substr(0, close));
    if (close != std::string_view::npos || ++i >= lines.size()) break;
    text = lines[i];
  }
  return body;
}

// The first paragraph of a docstring, up to its first sentence end; a trailing list of "- item" lines
// joins the paragraph ("A model that performs a sequence of operations: ConvTranspose3d, MaxPool3d").
std::string summaryOf(const std::vector<std::string_view>& docstring) {
  std::string text;
  bool inList = false;
  for (std::string_view raw : docstring) {
    const std::string_view line = trimmed(raw, kCSpaces);
    if (line.empty()) {
      if (text.empty()) continue;
      break;
    }
    if (inList || (text.ends_with(":") && line.starts_with("- "))) {
      if (!line.starts_with("- ")) break;
      text += std::string(inList ? ", " : " ") + std::string(trimmed(line.substr(2), kCSpaces));
      inList = true;
      continue;
    }
    if (!isDescriptive(line)) {
      if (text.empty()) continue;
      break;
    }
    text += (text.empty() ? "" : " ") + std::string(line);
  }
  if (const std::size_t end = text.find(". "); end != std::string::npos) text.resize(end);
  return tidy(text);
}

// The summary of the docstring of `class Model`, else of its __init__.
std::string fromDocstring(const std::vector<std::string_view>& lines, std::size_t classLine) {
  if (std::string name = summaryOf(docstringAfter(lines, classLine)); !name.empty()) return name;
  for (std::size_t i = classLine + 1; i < lines.size() && !isTopLevelCode(lines[i]); ++i)
    if (trimmed(lines[i], kCSpaces).starts_with("def __init__")) return summaryOf(docstringAfter(lines, i));
  return {};
}

// The first line of a comment block above `class Model` that is not licence or provenance boilerplate.
std::string fromComments(const std::vector<std::string_view>& lines, std::size_t classLine) {
  for (std::size_t i = 0; i < classLine; ++i) {
    if (!lines[i].starts_with("#")) continue;
    std::size_t end = i;
    bool boilerplate = false;
    while (end < classLine && lines[end].starts_with("#")) {
      boilerplate =
          boilerplate || containsNoCase(lines[end], "copyright") || containsNoCase(lines[end], "licen");
      ++end;
    }
    if (!boilerplate)
      for (std::size_t k = i; k < end; ++k) {
        std::string_view text = lines[k];
        text.remove_prefix(std::min(text.find_first_not_of('#'), text.size()));  // "#####" leaves ""
        text = trimmed(text, kCSpaces);
        if (isDescriptive(text) && !containsNoCase(text, "http") && !containsNoCase(text, "test code"))
          return tidy(text);
      }
    i = end;
  }
  return {};
}

std::string fromHelperClasses(const std::vector<std::string_view>& lines) {
  std::string helpers;
  for (std::string_view line : lines) {
    const std::string_view name = className(line);
    if (name.empty() || name == "Model") continue;
    if (helpers.size() + name.size() > kMaxTaskNameChars / 2) break;
    helpers += (helpers.empty() ? "" : ", ") + std::string(name);
  }
  return helpers.empty() ? std::string() : tidy("Model built from " + helpers);
}

// "nn.Linear, nn.ReLU": the first few torch.nn layer types the program uses.
std::string fromLayers(std::string_view program) {
  constexpr std::size_t kMaxLayers = 4;
  std::vector<std::string> layers;
  for (std::size_t at = program.find("nn."); at != std::string_view::npos && layers.size() < kMaxLayers;
       at = program.find("nn.", at + 3)) {
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(program[at - 1])) || program[at - 1] == '_'))
      continue;
    std::size_t end = at + 3;
    while (end < program.size() &&
           (std::isalnum(static_cast<unsigned char>(program[end])) || program[end] == '_'))
      ++end;
    const std::string layer(program.substr(at, end - at));
    static constexpr std::array<std::string_view, 5> kContainers = {
        "nn.Module", "nn.Sequential", "nn.ModuleList", "nn.ModuleDict", "nn.Parameter"};
    const bool isLayer = end < program.size() && program[end] == '(' && layer.size() > 3 &&
                         std::isupper(static_cast<unsigned char>(layer[3])) &&
                         std::find(kContainers.begin(), kContainers.end(), layer) == kContainers.end();
    if (isLayer && std::find(layers.begin(), layers.end(), layer) == layers.end()) layers.push_back(layer);
  }
  std::string name;
  for (const std::string& layer : layers) name += (name.empty() ? "" : ", ") + layer;
  return name;
}

}  // namespace

std::string taskNameFromReference(std::string_view pythonProgram) {
  const std::vector<std::string_view> lines = splitLines(pythonProgram);
  const auto model = std::find_if(lines.begin(), lines.end(),
                                  [](std::string_view line) { return className(line) == "Model"; });
  const auto classLine = static_cast<std::size_t>(model - lines.begin());
  if (model != lines.end())
    if (std::string name = fromDocstring(lines, classLine); !name.empty()) return name;
  if (std::string name = fromComments(lines, classLine); !name.empty()) return name;
  if (std::string name = fromHelperClasses(lines); !name.empty()) return name;
  return fromLayers(pythonProgram);
}

}  // namespace ks
