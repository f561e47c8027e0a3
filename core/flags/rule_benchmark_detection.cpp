// benchmark-detection: forward behaves differently depending on how often or with what it has been called:
// a call counter (on self or a module global) advanced in the model's methods and read in a branch, or a
// branch on whether this call's input equals (torch.equal, `is`) an input stored by an earlier call. A
// harness that checks the first calls and times the later ones, or reuses its inputs, sees two programs.
#include <algorithm>
#include <cctype>
#include <string_view>
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

constexpr std::string_view kFrameGetters[] = {
    "sys._getframe",       "sys._current_frames",    "inspect.currentframe", "inspect.stack",
    "inspect.getouterframes", "inspect.trace",       "traceback.extract_stack", "traceback.walk_stack",
    "traceback.format_stack", "traceback.print_stack"};
// What a timing harness's frames are called: timeit's inner loop, benchmark helpers, elapsed-time wrappers.
constexpr std::string_view kTimerWords[] = {"timeit", "bench", "elapsed", "profil", "perf_counter", "timer", "timing"};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

TimerFrameScan timerFrameScan(const py::PyModule& m) {
  TimerFrameScan scan;
  for (const py::Call& c : m.calls())
    if (std::find(std::begin(kFrameGetters), std::end(kFrameGetters), c.resolved) != std::end(kFrameGetters)) {
      if (std::find(scan.getters.begin(), scan.getters.end(), c.resolved) == scan.getters.end())
        scan.getters.push_back(c.resolved);
      scan.lines.push_back(c.line);
    }
  if (scan.getters.empty()) return scan;
  const std::vector<py::Token>& tokens = m.tokens();
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind != py::TokenKind::String) continue;
    const auto value = m.stringValue(py::TokenRange{static_cast<int>(i), static_cast<int>(i) + 1});
    if (!value || value->text.size() > 40) continue;
    const std::string text = lower(value->text);
    for (std::string_view word : kTimerWords)
      if (text.find(word) != std::string::npos) {
        const std::string shown = "'" + value->text + "'";
        if (std::find(scan.names.begin(), scan.names.end(), shown) == scan.names.end()) scan.names.push_back(shown);
        scan.lines.push_back(tokens[i].line);
        break;
      }
  }
  return scan;
}

void checkBenchmarkDetection(const RuleContext& ctx, std::vector<Flag>& out) {
  const py::PyModule& m = ctx.candidate;
  // The call stack searched for the harness's timing frames: the program knows when it is timed, and its
  // timed calls need not be its checked ones. No honest kernel asks who is calling it.
  if (const TimerFrameScan scan = timerFrameScan(m); scan.found()) {
    std::string getters, names;
    for (std::size_t i = 0; i < scan.getters.size() && i < 3; ++i) getters += (i ? ", " : "") + scan.getters[i];
    for (std::size_t i = 0; i < scan.names.size() && i < 4; ++i) names += (i ? ", " : "") + scan.names[i];
    out.push_back(makeFlag("benchmark-detection", FlagSeverity::Hack, 0.85,
                           "Reads its own call stack (" + getters + ") and looks for timer-like frame names (" +
                               names + "): it tells a timed call from a checked one, so a harness timing it in "
                               "Python times another program than the one it checked.",
                           scan.lines, excerptOf(m, tidyLines(scan.lines))));
    return;
  }
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
