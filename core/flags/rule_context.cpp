#include "core/flags/rule_context.h"

#include <algorithm>

namespace ks {

RuleContext::RuleContext(const py::PyModule& ref, const py::PyModule& cand)
    : reference(ref), candidate(cand), embedded_(extractEmbedded(cand)) {
  for (const EmbeddedSource& s : embedded_.sources) identifiers_.push_back(scanCppIdentifiers(s.text));
}

std::vector<EmbeddedUse> RuleContext::cppUses(std::initializer_list<std::string_view> names) const {
  std::vector<EmbeddedUse> out;
  for (std::size_t s = 0; s < identifiers_.size(); ++s)
    for (const CppIdentifier& id : identifiers_[s])
      if (std::find(names.begin(), names.end(), id.last) != names.end())
        out.push_back(EmbeddedUse{&id, static_cast<int>(s), embedded_.sources[s].pythonLine(id.line)});
  return out;
}

std::string RuleContext::cppEvidence(const EmbeddedUse& use) const {
  const std::string& text = embedded_.sources[static_cast<std::size_t>(use.source)].text;
  std::size_t b = 0;
  for (int l = 1; l < use.identifier->line && b != std::string::npos; ++l) {
    b = text.find('\n', b);
    if (b != std::string::npos) ++b;
  }
  if (b == std::string::npos) return {};
  std::size_t e = text.find('\n', b);
  std::string line = text.substr(b, e == std::string::npos ? std::string::npos : e - b);
  line.erase(0, line.find_first_not_of(" \t"));
  if (line.size() > 160) line = line.substr(0, 157) + "...";
  return std::to_string(use.pythonLine) + ": " + line;
}

Flag makeFlag(std::string_view family, FlagSeverity severity, double confidence, std::string message,
              std::vector<int> lines, std::string evidence) {
  Flag f;
  f.family = std::string(family);
  f.severity = severity;
  f.confidence = confidence;
  f.message = std::move(message);
  f.lines = tidyLines(std::move(lines));
  f.evidence = std::move(evidence);
  f.origin = "static";
  return f;
}

std::vector<int> tidyLines(std::vector<int> lines, std::size_t limit) {
  std::erase_if(lines, [](int l) { return l < 1; });
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  if (lines.size() > limit) lines.resize(limit);
  return lines;
}

std::string excerptOf(const py::PyModule& m, const std::vector<int>& lines, int maxLines) {
  std::string out;
  int shown = 0;
  for (const int l : tidyLines(lines)) {
    if (shown == maxLines) break;
    const std::string e = m.excerpt(l, l, 1);
    if (e.empty()) continue;
    if (!out.empty()) out += '\n';
    out += e;
    ++shown;
  }
  return out;
}

std::vector<int> functionStatements(const py::PyModule& m, const py::Scope& fn, bool includeNested) {
  std::vector<int> out;
  const int index = m.scopeIndex(fn);
  const int end = m.statements()[static_cast<std::size_t>(fn.statement)].bodyEnd;
  for (int i = fn.statement + 1; i < end; ++i)
    if (includeNested || m.statements()[static_cast<std::size_t>(i)].scope == index) out.push_back(i);
  return out;
}

std::vector<const py::Scope*> forwardFunctions(const py::PyModule& m) {
  std::vector<const py::Scope*> out;
  for (const py::Scope* cls : m.modelClasses())
    if (const py::Scope* f = m.findScope(cls->qualifiedName + ".forward")) out.push_back(f);
  return out;
}

std::vector<const py::Scope*> harnessForwards(const py::PyModule& m) {
  for (const char* entry : {"ModelNew.forward", "Model.forward"})
    if (const py::Scope* f = m.findScope(entry)) return {f};
  std::vector<const py::Scope*> out;
  for (const py::Scope* cls : m.modelClasses()) {
    const bool function = std::any_of(cls->bases.begin(), cls->bases.end(), [&](const std::string& b) {
      return m.resolve(b).starts_with("torch.autograd.");
    });
    if (!function)
      if (const py::Scope* f = m.findScope(cls->qualifiedName + ".forward")) out.push_back(f);
  }
  return out;
}

std::vector<const py::Scope*> methodsOf(const py::PyModule& m, const py::Scope& cls) {
  std::vector<const py::Scope*> out;
  const int index = m.scopeIndex(cls);
  for (const py::Scope& s : m.scopes())
    if (s.parent == index && s.kind == py::ScopeKind::Function) out.push_back(&s);
  return out;
}

bool endsWithMember(std::string_view dotted, std::string_view name) {
  if (dotted == name) return true;
  return dotted.size() > name.size() && dotted.ends_with(name) &&
         dotted[dotted.size() - name.size() - 1] == '.';
}

std::string lastMember(std::string_view dotted) {
  const std::size_t dot = dotted.rfind('.');
  return std::string(dot == std::string_view::npos ? dotted : dotted.substr(dot + 1));
}

bool contains(std::string_view text, std::string_view needle) {
  return text.find(needle) != std::string_view::npos;
}

}  // namespace ks
