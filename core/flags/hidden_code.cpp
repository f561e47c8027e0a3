#include "core/flags/hidden_code.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string_view>

#include "core/model/text_trim.h"

namespace ks {

namespace {

bool printableText(const std::string& s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return c == '\n' || c == '\t' || c == '\r' || (c >= 0x20 && c < 0x7f) || c >= 0x80;
  });
}

std::string dedent(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t e = text.find('\n', start);
    lines.push_back(text.substr(start, e == std::string::npos ? std::string::npos : e - start));
    if (e == std::string::npos) break;
    start = e + 1;
  }
  std::size_t indent = std::string::npos;
  for (const std::string& l : lines) {
    const std::size_t first = l.find_first_not_of(" \t\r");
    if (first != std::string::npos) indent = std::min(indent, first);
  }
  if (indent == std::string::npos) indent = 0;
  std::string out;
  for (const std::string& l : lines) out += (l.size() >= indent ? l.substr(indent) : std::string()) + "\n";
  return out;
}

std::string rot13(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>('a' + (c - 'a' + 13) % 26);
    else if (c >= 'A' && c <= 'Z') c = static_cast<char>('A' + (c - 'A' + 13) % 26);
  }
  return s;
}

// The string a call argument evaluates to when it is a literal, or a name bound to one at module level.
std::optional<std::string> literalOf(const py::PyModule& m, const py::Argument& a) {
  if (auto s = m.stringValue(a.value)) return s->text;
  const std::string name = m.compactText(a.value);
  if (const py::Assignment* as = m.moduleAssignment(name))
    if (auto s = m.stringValue(as->value)) return s->text;
  return std::nullopt;
}

bool sensitiveApi(std::string_view id) {
  constexpr std::string_view kFragments[] = {"Stream", "Event", "Graph", "Synchroniz", "Limit", "Attribute",
                                             "AccessPolicy"};
  const bool runtimeName = (id.starts_with("cuda") || id.starts_with("cu")) && id.size() > 4 &&
                           std::isupper(static_cast<unsigned char>(id[id.starts_with("cuda") ? 4 : 2]));
  const bool atenName = id == "getStreamFromPool" || id == "setCurrentCUDAStream" || id == "CUDAStreamGuard" ||
                        id == "getCurrentCUDAStream" || id == "CUDAGraph";
  if (atenName) return true;
  if (!runtimeName) return false;
  return std::any_of(std::begin(kFragments), std::end(kFragments),
                     [&](std::string_view f) { return id.find(f) != std::string_view::npos; });
}

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// `text` with every `##` (and the blanks around it) removed, then its identifiers.
std::vector<std::string> identifiersAfterPasting(const std::string& text) {
  std::string pasted;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "##") == 0) {
      while (!pasted.empty() && (pasted.back() == ' ' || pasted.back() == '\t')) pasted.pop_back();
      i += 2;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
      --i;
      continue;
    }
    pasted += text[i];
  }
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < pasted.size();) {
    if (!identChar(pasted[i]) || std::isdigit(static_cast<unsigned char>(pasted[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < pasted.size() && identChar(pasted[j])) ++j;
    ids.push_back(pasted.substr(i, j - i));
    i = j;
  }
  return ids;
}

struct Macro {
  std::vector<std::string> params;
  std::string body;
};

}  // namespace

bool decodeBase64(const std::string& in, std::string& out) {
  out.clear();
  unsigned int buffer = 0;
  int bits = 0, count = 0;
  for (const char c : in) {
    int v;
    if (c >= 'A' && c <= 'Z') v = c - 'A';
    else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
    else if (c >= '0' && c <= '9') v = c - '0' + 52;
    else if (c == '+' || c == '-') v = 62;
    else if (c == '/' || c == '_') v = 63;
    else if (c == '=' || c == '\n' || c == ' ' || c == '\r') continue;
    else return false;
    ++count;
    buffer = (buffer << 6) | static_cast<unsigned int>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((buffer >> bits) & 0xff);
    }
  }
  return count >= 4;
}

bool decodeHex(const std::string& in, std::string& out) {
  out.clear();
  std::string digits;
  for (const char c : in)
    if (!std::isspace(static_cast<unsigned char>(c))) digits += c;
  if (digits.size() < 2 || digits.size() % 2 != 0) return false;
  for (std::size_t i = 0; i < digits.size(); i += 2) {
    if (!std::isxdigit(static_cast<unsigned char>(digits[i])) ||
        !std::isxdigit(static_cast<unsigned char>(digits[i + 1])))
      return false;
    out += static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16));
  }
  return true;
}

std::vector<std::pair<std::string, int>> pastedIdentifiers(const std::string& source) {
  // Logical lines (backslash continuations joined), each with its first physical line.
  std::vector<std::pair<std::string, int>> logical;
  std::string current;
  int line = 1, startLine = 1;
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\\' && i + 1 < source.size() && source[i + 1] == '\n') {
      ++i;
      ++line;
      current += ' ';
      continue;
    }
    if (source[i] == '\n') {
      logical.emplace_back(current, startLine);
      current.clear();
      startLine = ++line;
      continue;
    }
    current += source[i];
  }
  logical.emplace_back(current, startLine);

  std::vector<std::pair<std::string, int>> out;
  std::map<std::string, Macro> pasting;
  for (const auto& [text, at] : logical) {
    const std::size_t hash = text.find_first_not_of(" \t");
    if (hash == std::string::npos || text[hash] != '#') continue;
    std::size_t p = text.find_first_not_of(" \t", hash + 1);
    if (p == std::string::npos || text.compare(p, 6, "define") != 0) continue;
    p = text.find_first_not_of(" \t", p + 6);
    if (p == std::string::npos) continue;
    std::size_t e = p;
    while (e < text.size() && identChar(text[e])) ++e;
    const std::string name = text.substr(p, e - p);
    Macro macro;
    if (e < text.size() && text[e] == '(') {
      const std::size_t close = text.find(')', e);
      if (close == std::string::npos) continue;
      std::string param;
      for (std::size_t k = e + 1; k <= close; ++k) {
        if (text[k] == ',' || k == close) {
          if (const std::string_view name = trimmed(param, " \t"); !name.empty())
            macro.params.emplace_back(name);
          param.clear();
        } else {
          param += text[k];
        }
      }
      e = close + 1;
    }
    macro.body = text.substr(e);
    if (macro.body.find("##") == std::string::npos) continue;
    for (const std::string& id : identifiersAfterPasting(macro.body)) out.emplace_back(id, at);
    if (!macro.params.empty()) pasting[name] = macro;
  }
  // Invocations NAME(args) of pasting macros: the body with the arguments substituted, then pasted.
  for (const auto& [name, macro] : pasting) {
    for (std::size_t pos = source.find(name); pos != std::string::npos; pos = source.find(name, pos + 1)) {
      if ((pos > 0 && identChar(source[pos - 1])) || pos + name.size() >= source.size()) continue;
      std::size_t k = pos + name.size();
      while (k < source.size() && (source[k] == ' ' || source[k] == '\t')) ++k;
      if (k >= source.size() || source[k] != '(') continue;
      std::vector<std::string> args(1);
      int depth = 0;
      std::size_t j = k + 1;
      for (; j < source.size(); ++j) {
        const char c = source[j];
        if (c == '(') ++depth;
        if (c == ')' && depth-- == 0) break;
        if (c == ',' && depth == 0) {
          args.emplace_back();
          continue;
        }
        args.back() += c;
      }
      if (j >= source.size() || args.size() != macro.params.size()) continue;
      std::string body = macro.body;
      for (std::size_t a = 0; a < args.size(); ++a) {
        const std::string_view arg = trimmed(args[a], " \t\n");
        std::string replaced;
        for (std::size_t b = 0; b < body.size();) {
          if (body.compare(b, macro.params[a].size(), macro.params[a]) == 0 &&
              (b == 0 || !identChar(body[b - 1])) &&
              (b + macro.params[a].size() >= body.size() || !identChar(body[b + macro.params[a].size()]))) {
            replaced += arg;
            b += macro.params[a].size();
          } else {
            replaced += body[b++];
          }
        }
        body = replaced;
      }
      const int invocationLine = 1 + static_cast<int>(std::count(source.begin(), source.begin() + pos, '\n'));
      for (const std::string& id : identifiersAfterPasting(body)) out.emplace_back(id, invocationLine);
    }
  }
  return out;
}

HiddenCodeFindings findHiddenCode(const py::PyModule& m, const EmbeddedExtraction& embedded) {
  HiddenCodeFindings r;
  auto addDecoded = [&](const std::string& text, int line) {
    if (!printableText(text)) return;
    r.decoded.push_back({dedent(text), line});
  };
  for (const py::Call& c : m.calls()) {
    const std::string& f = c.resolved;
    if (f.find("()") != std::string::npos) continue;  // a method of a call's result: base64.b64decode(s).decode
    const std::optional<std::string> arg0 = c.args.empty() ? std::nullopt : literalOf(m, c.args[0]);
    if (f == "exec" || f == "eval" || f == "compile" || f == "builtins.exec" || f == "builtins.eval" ||
        f == "builtins.compile") {
      const std::string name = f.substr(f.rfind('.') + 1);
      r.found.push_back({name + (arg0 ? " of a string literal" : " of code built at run time"), c.line, true});
      if (arg0) addDecoded(*arg0, c.line);
      continue;
    }
    if ((f.starts_with("base64.") && f.find("decode") != std::string::npos) || f == "binascii.a2b_base64") {
      std::string decoded;
      r.found.push_back({f + " payload", c.line, false});
      if (arg0 && decodeBase64(*arg0, decoded)) addDecoded(decoded, c.line);
      continue;
    }
    if (f == "bytes.fromhex" || f == "binascii.unhexlify" || f == "binascii.a2b_hex") {
      std::string decoded;
      r.found.push_back({f + " payload", c.line, false});
      if (arg0 && decodeHex(*arg0, decoded)) addDecoded(decoded, c.line);
      continue;
    }
    if (f == "codecs.decode" || f == "codecs.encode") {
      r.found.push_back({f + " payload", c.line, false});
      if (arg0 && c.args.size() >= 2) {
        const std::string codec = m.stringValue(c.args[1].value) ? m.stringValue(c.args[1].value)->text : "";
        std::string decoded;
        if (codec == "rot13" || codec == "rot_13") addDecoded(rot13(*arg0), c.line);
        else if ((codec == "hex" || codec == "hex_codec") && decodeHex(*arg0, decoded)) addDecoded(decoded, c.line);
        else if ((codec == "base64" || codec == "base64_codec") && decodeBase64(*arg0, decoded))
          addDecoded(decoded, c.line);
      }
      continue;
    }
    if (f == "zlib.decompress" || f == "bz2.decompress" || f == "lzma.decompress" || f == "gzip.decompress" ||
        f == "marshal.loads" || f == "pickle.loads" || f == "dill.loads" || f == "types.CodeType" ||
        f == "types.FunctionType") {
      r.found.push_back({f + (f.starts_with("types.") ? " built from data" : " payload"), c.line,
                         f == "marshal.loads" || f.starts_with("types.")});
      continue;
    }
    if ((f == "__import__" || f == "builtins.__import__" || f == "importlib.import_module") && !c.args.empty() &&
        !m.stringValue(c.args[0].value))
      r.found.push_back({f + " of a computed name", c.line, false});
  }
  for (const EmbeddedSource& src : embedded.sources)
    for (const auto& [id, line] : pastedIdentifiers(src.text))
      if (sensitiveApi(id)) r.found.push_back({"`##` token pasting that spells " + id, src.pythonLine(line), true});
  return r;
}

}  // namespace ks
