#include "core/flags/value_origin.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ks {

namespace {

constexpr int kMaxOriginDepth = 6;

bool dependsAt(const py::PyModule& m, const py::Scope& fn, py::TokenRange r, int statement, int depth,
               std::vector<std::string>& visiting) {
  if (depth > kMaxOriginDepth) return false;
  for (const std::string& dotted : m.namesIn(r)) {
    const std::string root = dotted.substr(0, dotted.find('.'));
    if (root == "self" || root == "cls") continue;
    if (std::find(fn.parameters.begin(), fn.parameters.end(), root) != fn.parameters.end()) return true;
    if (std::find(visiting.begin(), visiting.end(), root) != visiting.end()) continue;
    visiting.push_back(root);
    for (const py::Assignment* a : m.assignmentsTo(root, &fn)) {
      if (a->statement >= statement || a->value.empty()) continue;
      if (dependsAt(m, fn, a->value, a->statement, depth + 1, visiting)) return true;
    }
  }
  return false;
}

}  // namespace

bool dependsOnInputs(const py::PyModule& m, const py::Scope& fn, py::TokenRange r, int statement) {
  std::vector<std::string> visiting;
  return dependsAt(m, fn, r, statement, 0, visiting);
}

StateRead stateRead(const py::PyModule& m, py::TokenRange r) {
  static constexpr std::string_view kLookups[] = {"get", "pop", "setdefault"};
  static constexpr std::string_view kPassThrough[] = {"clone",   "detach", "contiguous", "view_as", "view",
                                                      "reshape", "to",     "expand_as",  "float",   "data"};
  auto text = [&](int i) { return i < r.end ? m.tokenText(i) : std::string_view(); };
  if (r.size() < 3 || text(r.begin) != "self" || text(r.begin + 1) != "." ||
      m.tokens()[static_cast<std::size_t>(r.begin + 2)].kind != py::TokenKind::Name)
    return {};
  StateRead out;
  out.head = "self." + std::string(text(r.begin + 2));
  int i = r.begin + 3;
  if (text(i) == "(") return {};  // self.method(...) computes
  while (i < r.end) {
    if (text(i) == "[") {
      out.lookup = true;
      i = m.matchingBracket(i) + 1;
      if (i <= 0) return {};
      continue;
    }
    if (text(i) != "." || i + 1 >= r.end) return {};
    const std::string_view member = text(i + 1);
    if (text(i + 2) != "(") {  // an attribute of the stored value
      i += 2;
      continue;
    }
    const bool lookup = std::find(std::begin(kLookups), std::end(kLookups), member) != std::end(kLookups);
    const bool pass =
        std::find(std::begin(kPassThrough), std::end(kPassThrough), member) != std::end(kPassThrough);
    if (!lookup && !pass) return {};
    out.lookup = out.lookup || lookup;
    i = m.matchingBracket(i + 2) + 1;
    if (i <= 0) return {};
  }
  return out;
}

}  // namespace ks
