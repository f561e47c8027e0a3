// benchmark-detection: forward behaves differently depending on how often or with what it has been called:
// a call counter (on self or a module global) advanced in the model's methods and read in a branch, or a
// branch on whether this call's input equals (torch.equal, `is`) an input stored by an earlier call. A
// harness that checks the first calls and times the later ones, or reuses its inputs, sees two programs.
#include <algorithm>
#include <set>
#include <string>

#include "core/flags/rule_context.h"

namespace ks {

namespace {

bool branchHeader(const py::Statement& s) {
  return s.kind == py::StmtKind::If || s.kind == py::StmtKind::Elif || s.kind == py::StmtKind::While;
}

// The statement reads `name` as a whole dotted name.
bool reads(const py::PyModule& m, const py::Statement& s, const std::string& name) {
  for (const std::string& n : m.namesIn(s.tokens))
    if (n == name) return true;
  return false;
}

bool hasConditionalExpression(const py::PyModule& m, const py::Statement& s) {
  for (int t = s.tokens.begin; t < s.tokens.end; ++t)
    if (m.tokenText(t) == "if") return true;
  return false;
}

}  // namespace

void checkBenchmarkDetection(const RuleContext& ctx, std::vector<Flag>& out) {
  const py::PyModule& m = ctx.candidate;
  std::vector<int> lines;
  std::string what;
  for (const py::Scope* forward : harnessForwards(m)) {
    if (forward->parent < 0) continue;
    const py::Scope& cls = m.scopes()[static_cast<std::size_t>(forward->parent)];
    std::vector<int> statements;
    for (const py::Scope* method : methodsOf(m, cls)) {
      if (method->name == "__init__") continue;
      for (int s : functionStatements(m, *method, true)) statements.push_back(s);
    }
    // Counters: self.n += k or n += k (a global), and self.n = self.n + k.
    std::set<std::string> counters;
    std::vector<int> counterLines;
    for (const py::Assignment& a : m.assignments()) {
      if (std::find(statements.begin(), statements.end(), a.statement) == statements.end()) continue;
      if (a.targets.size() != 1) continue;
      const std::string& t = a.targets[0];
      const std::string value = m.compactText(a.value);
      const bool step = (a.op == "+=" || a.op == "-=") && m.evaluateNumber(a.value).has_value();
      const bool selfStep = a.op == "=" && (value.starts_with(t + "+") || value.starts_with(t + "-")) &&
                            m.evaluateNumber(py::TokenRange{a.value.begin + 2 + static_cast<int>(
                                                                std::count(t.begin(), t.end(), '.')) * 2,
                                                            a.value.end})
                                .has_value();
      // A local (a loop index) restarts every call: only state that outlives the call counts calls.
      const bool persistent = t.starts_with("self.") || m.moduleAssignment(t) != nullptr;
      if ((step || selfStep) && persistent) {
        counters.insert(t);
        counterLines.push_back(a.line);
      }
    }
    for (const std::string& c : counters)
      for (int s : statements) {
        const py::Statement& st = m.statements()[static_cast<std::size_t>(s)];
        if (!reads(m, st, c)) continue;
        if (!branchHeader(st) && !hasConditionalExpression(m, st)) continue;
        lines.push_back(st.line);
        for (const int l : counterLines) lines.push_back(l);
        if (what.find(c) == std::string::npos)
          what += (what.empty() ? "" : "; ") + std::string("branches on the call counter ") + c + " (line " +
                  std::to_string(st.line) + ")";
        break;
      }
    // Input repetition: a branch comparing an argument with something stored on self.
    std::set<std::string> params(forward->parameters.begin(), forward->parameters.end());
    params.erase("self");
    for (int s : statements) {
      const py::Statement& st = m.statements()[static_cast<std::size_t>(s)];
      if (!branchHeader(st)) continue;
      const std::string text = m.compactText(st.tokens);
      bool stored = text.find("self.") != std::string::npos;
      bool argument = false;
      for (const std::string& p : params)
        for (const std::string& n : m.namesIn(st.tokens)) argument = argument || n == p || n.starts_with(p + ".");
      const bool equality = text.find("torch.equal(") != std::string::npos || text.find(".equal(") != std::string::npos ||
                            text.find(" is self.") != std::string::npos || text.find("isself.") != std::string::npos;
      if (stored && argument && equality) {
        lines.push_back(st.line);
        what += (what.empty() ? "" : "; ") + std::string("branches on whether this call's input equals a stored one (line ") +
                std::to_string(st.line) + ")";
      }
    }
  }
  if (what.empty()) return;
  // A counter alone is also how honest programs warm up before capturing a CUDA graph: suspicious. A branch
  // on a repeated input only pays off when the harness repeats its inputs: a hack.
  const bool repeatedInput = what.find("equals a stored one") != std::string::npos;
  out.push_back(makeFlag("benchmark-detection", repeatedInput ? FlagSeverity::Hack : FlagSeverity::Suspicious,
                         repeatedInput ? 0.8 : 0.6,
                         "forward changes behaviour with the calls it has seen: " + what +
                             "; a harness that checks early calls and times later or repeated ones sees another program.",
                         lines, excerptOf(m, lines)));
}

}  // namespace ks
