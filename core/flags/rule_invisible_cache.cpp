// invisible-cache: state kept across calls where no Python-level check looks. In the candidate's C++/CUDA: a
// static or namespace-scope variable compared with an input's address in a branch (work skipped when the
// address repeats), or a persistent flag guarding a kernel launch on the call's inputs that the guarded block
// then sets (work done once, later calls served from a buffer). In Python: compiled callables (torch.compile,
// torch.jit.trace, make_graphed_callables) stored under an input's data_ptr(). A persistent workspace that
// every call rewrites, or a library handle, is not a cache and is not flagged
// (controls/static_workspace_silu.py).
#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "core/flags/cpp_tokens.h"
#include "core/flags/rule_context.h"

namespace ks {

namespace {

bool isKeyword(std::string_view t) {
  static const std::set<std::string_view> k = {
      "using", "typedef", "template", "struct", "class", "namespace", "extern", "return", "__global__",
      "__device__", "__host__", "__constant__", "__shared__", "if", "for", "while", "switch", "enum", "union",
      "constexpr", "inline", "friend", "public", "private", "protected", "operator", "virtual", "case", "default",
      "else", "do", "break", "continue", "goto", "throw", "try", "catch", "static_assert", "PYBIND11_MODULE",
      "TORCH_LIBRARY"};
  return k.count(t) > 0;
}

// Variables that outlive a call: `static` declarations anywhere, and simple declarations outside every
// function body (namespace scope). Constants (const without a pointer, constexpr) are left out.
std::set<std::string_view> persistentNames(const CppTokens& t) {
  std::set<std::string_view> out;
  // Inside braces other than a namespace's (a function, a struct, an initializer).
  auto insideBraces = [&](int at) {
    for (int k = at - 1; k >= 0; --k) {
      if (!t.is(k, "{") || t.match(k) < at) continue;
      if (t.is(k - 1, "namespace") || (t.isIdentifier(k - 1) && t.is(k - 2, "namespace"))) continue;
      return true;
    }
    return false;
  };
  auto declaration = [&](int begin, bool isStatic) {
    int end = begin;
    bool pointer = false, constant = false;
    while (end < t.size() && !t.is(end, ";") && !t.is(end, "=") && !t.is(end, "{") && !t.is(end, "(") &&
           !t.is(end, "[")) {
      pointer = pointer || t.is(end, "*");
      constant = constant || t.is(end, "const") || t.is(end, "constexpr");
      ++end;
    }
    if (end >= t.size() || t.is(end, "(") || t.is(end, "{")) return;  // a function, or a braced init/body
    if (isKeyword(t.text(begin)) && !isStatic) return;
    if (constant && !pointer) return;
    const int name = end - 1;
    if (name <= begin || !t.isIdentifier(name)) return;  // a type and a name at least
    out.insert(t.text(name));
  };
  for (int i = 0; i < t.size(); ++i) {
    if (t.is(i, "static")) {
      declaration(i + 1, true);
      continue;
    }
    const bool statementStart = i == 0 || t.is(i - 1, ";") || t.is(i - 1, "}") || t.is(i - 1, "{");
    if (!statementStart || !t.isIdentifier(i) || isKeyword(t.text(i)) || insideBraces(i)) continue;
    declaration(i, false);
  }
  return out;
}

// Names of the parameters of the function whose body holds token `at`.
std::set<std::string_view> parametersAround(const CppTokens& t, int at) {
  std::set<std::string_view> out;
  for (int k = at - 1; k >= 0; --k) {
    if (!(t.is(k, "{") && t.match(k) > at && t.is(k - 1, ")"))) continue;
    const int open = t.match(k - 1);
    if (open < 0) break;
    for (const auto& [b, e] : t.splitArgs(open + 1, k - 1))
      if (e > b && t.isIdentifier(e - 1)) out.insert(t.text(e - 1));
    break;
  }
  return out;
}

struct CppCache {
  int line = 0, otherLine = 0;
  std::string what;
  bool addressKeyed = false;
};

void scanSource(const EmbeddedSource& src, std::vector<CppCache>& found) {
  const CppTokens t(src.text);
  const std::set<std::string_view> persistent = persistentNames(t);
  if (persistent.empty()) return;
  for (int i = 0; i + 1 < t.size(); ++i) {
    if (!t.is(i, "if") || !t.is(i + 1, "(")) continue;
    const int close = t.match(i + 1);
    if (close < 0) continue;
    std::string_view stored;
    bool address = false, compares = false;
    for (int k = i + 2; k < close; ++k) {
      if (t.isIdentifier(k) && persistent.count(t.text(k)) && stored.empty()) stored = t.text(k);
      address = address || t.is(k, "data_ptr");
      compares = compares || t.is(k, "==") || t.is(k, "!=");
    }
    if (stored.empty()) continue;
    // The input's address compared with a stored one.
    if (address && compares) {
      found.push_back({src.pythonLine(t.line(i)), 0,
                       "compares an input's data_ptr() with " + std::string(stored) +
                           ", kept across calls, and branches on it",
                       true});
      return;
    }
    // A persistent flag guarding a launch on the call's inputs, set inside the guarded block.
    const int body = close + 1;
    if (!t.is(body, "{") || t.match(body) < 0) continue;
    const std::set<std::string_view> params = parametersAround(t, i);
    bool launchOnInputs = false, setsFlag = false;
    int launchLine = 0;
    for (int k = body + 1; k < t.match(body); ++k) {
      if (t.is(k, "<<<")) {
        const int launchEnd = t.match(k);
        const int argsOpen = launchEnd + 1;
        if (launchEnd > 0 && t.is(argsOpen, "(") && t.match(argsOpen) > argsOpen)
          for (int a = argsOpen + 1; a < t.match(argsOpen); ++a)
            if (t.isIdentifier(a) && params.count(t.text(a))) {
              launchOnInputs = true;
              launchLine = t.line(k);
            }
      }
      if (t.is(k, stored) && t.is(k + 1, "=") && !t.is(k + 2, "=")) setsFlag = true;
    }
    if (launchOnInputs && setsFlag) {
      found.push_back({src.pythonLine(t.line(i)), src.pythonLine(launchLine),
                       "launches its kernel on the inputs only while " + std::string(stored) +
                           ", kept across calls, is unset, and sets it in the same block",
                       false});
      return;
    }
  }
}

}  // namespace

void checkInvisibleCache(const RuleContext& ctx, std::vector<Flag>& out) {
  const py::PyModule& m = ctx.candidate;
  std::vector<CppCache> found;
  for (const EmbeddedSource& s : ctx.embedded().sources) scanSource(s, found);
  if (!found.empty()) {
    const CppCache& c = found.front();
    std::vector<int> lines{c.line};
    if (c.otherLine > 0) lines.push_back(c.otherLine);
    out.push_back(makeFlag("invisible-cache", FlagSeverity::Hack, c.addressKeyed ? 0.85 : 0.8,
                           "The C++/CUDA source " + c.what +
                               ": a later call gets an earlier call's result from memory that no Python-level "
                               "check inspects.",
                           lines, excerptOf(m, lines)));
    return;
  }
  // Python: compiled or captured callables stored under an input's address.
  std::vector<int> lines;
  for (const py::Assignment& a : m.assignments()) {
    bool keyed = false;
    for (std::size_t i = 0; i < a.targets.size(); ++i)
      keyed = keyed || (a.targets[i].find('[') != std::string::npos &&
                        m.compactText(a.targetRanges[i]).find("data_ptr") != std::string::npos);
    if (!keyed) continue;
    for (const py::Call* c : m.callsInRange(a.value))
      if (c->resolved == "torch.compile" || c->resolved.starts_with("torch.jit.trace") ||
          endsWithMember(c->resolved, "make_graphed_callables"))
        lines.push_back(a.line);
  }
  if (lines.empty()) return;
  out.push_back(makeFlag("invisible-cache", FlagSeverity::Suspicious, 0.6,
                         "Stores compiled or captured callables under an input's data_ptr(): a call on a reused "
                         "address replays what was built for that address, whatever it now holds.",
                         lines, excerptOf(m, lines)));
}

}  // namespace ks
