// cached-output: forward returns a value stored on self by an earlier call (directly, or through a
// dict/LRU lookup) on a path where nothing recomputes it from this call's inputs; or an embedded C++
// function returns tensors kept in a container that outlives the call.
#include <algorithm>
#include <cctype>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/flags/cpp_tokens.h"
#include "core/flags/rule_context.h"
#include "core/flags/value_origin.h"

namespace ks {

namespace {

// `name(` as a call of that function, not as the tail of a longer name ("_build(" is no call of id).
bool callsFunction(const std::string& text, const std::string& name) {
  for (std::size_t at = text.find(name + "("); at != std::string::npos; at = text.find(name + "(", at + 1)) {
    const char before = at == 0 ? ' ' : text[at - 1];
    if (!(std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == '.')) return true;
  }
  return false;
}

class CachedOutput {
 public:
  CachedOutput(const RuleContext& ctx, std::vector<Flag>& out) : m_(ctx.candidate), out_(out) {}

  // forward, and a __call__ override (which bypasses forward), of every model class.
  void run() {
    for (const py::Scope* cls : m_.modelClasses()) {
      for (const char* entry : {".forward", ".__call__"}) {
        const py::Scope* fn = m_.findScope(cls->qualifiedName + entry);
        if (fn == nullptr) continue;
        for (const int r : functionStatements(m_, *fn)) {
          const py::Statement& st = m_.statements()[static_cast<std::size_t>(r)];
          if (st.kind != py::StmtKind::Return || st.tokens.size() < 2) continue;
          if (check(*cls, *fn, r, py::TokenRange{st.tokens.begin + 1, st.tokens.end})) break;
        }
      }
    }
  }

 private:
  const py::PyModule& m_;
  std::vector<Flag>& out_;

  const py::Statement& stmt(int i) const { return m_.statements()[static_cast<std::size_t>(i)]; }

  // Statements that run before `r` on every path through `fn`: earlier siblings of r and of each of its
  // enclosing statements, up to the function body (compound siblings count only by their header).
  std::vector<int> dominating(const py::Scope& fn, int r) const {
    std::vector<int> out;
    for (int cur = r; cur != fn.statement && cur >= 0; cur = stmt(cur).parent) {
      const int parent = stmt(cur).parent;
      for (int s = parent + 1; s < cur; ++s)
        if (stmt(s).parent == parent) out.push_back(s);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  // Whether the statement's writes of `head` cover only part of it: every assignment to it subscripts it with
  // something other than the whole (`self.out[rows] = ...`, `self.out[::2] = ...`; not `self.out[:]` or
  // `self.out[...]`), and no call writes into it whole.
  bool partialWrite(int s, const std::string& head) const {
    bool partial = false;
    for (const py::Assignment& a : m_.assignments()) {
      if (a.statement != s) continue;
      for (const std::string& t : a.targets) {
        if (t == head || t.starts_with(head + ".")) return false;
        if (!t.starts_with(head + "[")) continue;
        const std::string index = t.substr(head.size());
        if (index == "[:]" || index == "[...]" || index == "[:,:]") return false;
        partial = true;
      }
    }
    return partial;
  }

  bool writesState(const py::Scope& fn, int s, const std::string& head) const {
    for (const py::Assignment& a : m_.assignments()) {
      if (a.statement != s) continue;
      for (const std::string& t : a.targets)
        if ((t == head || t.starts_with(head + "[") || t.starts_with(head + ".")) &&
            dependsOnInputs(m_, fn, a.value, s))
          return true;
    }
    const py::Statement& st = stmt(s);
    for (const py::Call* c : m_.callsInRange(st.tokens)) {
      if (endsWithMember(c->callee, "replay")) return true;
      bool namesHead = false, namesInput = false;
      for (const py::Argument& a : c->args) {
        const std::string v = m_.compactText(a.value);
        if (a.keyword == "out" && v.starts_with(head)) return true;
        namesHead = namesHead || v.starts_with(head);
        namesInput = namesInput || dependsOnInputs(m_, fn, a.value, s);
      }
      if (c->callee.starts_with(head) && endsWithMember(c->callee, "copy_") && namesInput) return true;
      if (namesHead && namesInput) return true;  // a kernel writing into the stored buffer
    }
    return false;
  }

  // Text that decides whether the stored value is used: enclosing conditions, the names they use and
  // the methods they call (one level), so a key built from data_ptr() in a helper is seen.
  std::string keyText(const py::Scope& cls, const std::vector<int>& conditions, py::TokenRange value,
                      int r) const {
    // (range, statement, depth): names are followed to their assignments a few steps back.
    std::vector<std::tuple<py::TokenRange, int, int>> work{{value, r, 0}};
    for (const int c : conditions) work.emplace_back(stmt(c).tokens, c, 0);
    std::vector<const py::Assignment*> seen;
    std::string text;
    while (!work.empty()) {
      const auto [range, at, depth] = work.back();
      work.pop_back();
      text += " " + m_.compactText(range);
      if (depth == 3) continue;
      for (const std::string& name : m_.namesIn(range)) {
        const py::Assignment* a = m_.reachingAssignment(name, at);
        if (a == nullptr || a->value.empty() || std::find(seen.begin(), seen.end(), a) != seen.end())
          continue;
        seen.push_back(a);
        work.emplace_back(a->value, a->statement, depth + 1);
      }
    }
    for (const py::Scope* method : methodsOf(m_, cls))
      if (contains(text, "self." + method->name + "("))
        for (const int s : functionStatements(m_, *method)) text += " " + m_.compactText(stmt(s).tokens);
    return text;
  }

  bool check(const py::Scope& cls, const py::Scope& fwd, int r, py::TokenRange value) {
    const std::vector<int> before = dominating(fwd, r);
    std::string head;
    std::string returned = m_.compactText(value);
    std::vector<int> lines{stmt(r).line};
    std::vector<int> conditions;  // statements whose condition chooses the stored value
    const StateRead direct = stateRead(m_, value);
    std::vector<int> partialLines;  // writes that refresh only part of the stored value on this path
    if (!direct.head.empty()) {
      head = direct.head;
      for (const int s : before)
        if (writesState(fwd, s, head)) {
          if (!partialWrite(s, head)) return false;  // recomputed on this path
          partialLines.push_back(stmt(s).line);
        }
    } else {
      // A local that was last set, on every path, from a lookup in instance state.
      if (m_.tokens()[static_cast<std::size_t>(value.begin)].kind != py::TokenKind::Name) return false;
      const std::string local(m_.tokenText(value.begin));
      if (local == "self") return false;
      const py::Assignment* last = nullptr;
      for (const int s : before)
        for (const py::Assignment* a : m_.assignmentsTo(local, &fwd))
          if (a->statement == s) last = a;
      if (last == nullptr) return false;
      const StateRead via = stateRead(m_, last->value);
      if (via.head.empty()) return false;
      head = via.head;
      lines.push_back(last->line);
      // Fresh values assigned only under a condition: that condition is the cache check.
      for (const py::Assignment* a : m_.assignmentsTo(local, &fwd))
        if (a->statement > last->statement && a->statement < r &&
            dependsOnInputs(m_, fwd, a->value, a->statement))
          for (int p = stmt(a->statement).parent; p >= 0 && p != fwd.statement; p = stmt(p).parent)
            conditions.push_back(p);
    }
    for (int p = stmt(r).parent; p >= 0 && p != fwd.statement; p = stmt(p).parent) conditions.push_back(p);
    std::erase_if(conditions, [&](int c) {
      const py::StmtKind k = stmt(c).kind;
      return k != py::StmtKind::If && k != py::StmtKind::Elif && k != py::StmtKind::Else &&
             k != py::StmtKind::While;
    });
    // The stored value must come from some call's inputs, or it is just a buffer (graph outputs etc.).
    std::vector<int> stores;
    for (const py::Scope* method : methodsOf(m_, cls)) {
      for (const int s : functionStatements(m_, *method))
        if (writesState(*method, s, head)) stores.push_back(stmt(s).line);
    }
    if (stores.empty()) return false;
    for (const int c : conditions) lines.push_back(stmt(c).line);
    lines.insert(lines.end(), stores.begin(), stores.end());
    const std::string key = keyText(cls, conditions, value, r);
    const bool identity = contains(key, "data_ptr") || callsFunction(key, "id") ||
                          contains(key, " is self.") || contains(key, "_version");
    const bool shape = contains(key, "shape") || contains(key, "size(") || contains(key, "stride(") ||
                       contains(key, "numel(");
    std::string message = fwd.qualifiedName + " returns " + returned + ", stored by an earlier call in " +
                          head + ", without recomputing it from this call's inputs";
    FlagSeverity severity = FlagSeverity::Hack;
    double confidence = 0.85;
    if (!partialLines.empty()) {
      // Part of the stored result rewritten on a path chosen by the inputs' identity: the rest is an earlier
      // call's. Without such a key it is an incremental buffer, which the runtime probes judge.
      if (!identity) return false;
      lines.insert(lines.end(), partialLines.begin(), partialLines.end());
      message = fwd.qualifiedName + " returns " + returned + ", stored by an earlier call in " + head +
                ", after recomputing only part of it (line " + std::to_string(partialLines.front()) +
                ") when the inputs' identity (" + (contains(key, "_version") ? "_version" : "data_ptr()") +
                ") matches: the rest of the values are the earlier call's, and a benchmark that reuses its input "
                "tensors times a fraction of the work.";
      out_.push_back(makeFlag("cached-output", severity, 0.8, message, lines, excerptOf(m_, lines)));
      return true;
    }
    if (identity) {
      message += " when the inputs' identity (" +
                 std::string(contains(key, "data_ptr")  ? "data_ptr()"
                             : callsFunction(key, "id") ? "id()"
                                                        : "is") +
                 ") matches: a benchmark that reuses its input tensors times a lookup.";
    } else if (shape) {
      message += " when the input shape matches: new data of the same shape gets the old result.";
      confidence = 0.75;
    } else if (!conditions.empty()) {
      message += " once it has been computed: every later call gets the first call's result.";
      confidence = 0.7;
    } else {
      message += ".";
      severity = FlagSeverity::Suspicious;
      confidence = 0.5;
    }
    out_.push_back(makeFlag("cached-output", severity, confidence, message, lines, excerptOf(m_, lines)));
    return true;
  }
};

// Embedded C++ that keeps result tensors in storage outliving the call (a namespace-scope or static
// container or tensor) and returns from it: a cache the Python-level analysis cannot see.
void cppResultCaches(const RuleContext& ctx, const EmbeddedSource& src, std::vector<Flag>& out) {
  const CppTokens t(src.text);
  auto persistent = [&](int decl) {  // declared static, or outside any function body
    for (int k = decl; k >= 0 && !t.is(k, ";") && !t.is(k, "{") && !t.is(k, "}"); --k)
      if (t.is(k, "static")) return true;
    for (int k = decl - 1; k >= 0; --k)
      if (t.is(k, "{") && t.match(k) > decl) return !t.is(k - 1, ")") && !t.is(k - 1, "const");
    return true;
  };
  for (int i = 0; i + 2 < t.size(); ++i) {
    // A variable declared with Tensor in its type: `torch::Tensor NAME;`, `std::map<K, torch::Tensor> NAME;`.
    if (!t.is(i, "Tensor")) continue;
    int end = i + 1;
    while (end < t.size() && (t.isIdentifier(end) || t.is(end, "::") || t.is(end, ",") || t.is(end, ">") ||
                              t.is(end, ">>") || t.is(end, "*") || t.is(end, "&")))
      ++end;
    const int name = end - 1;
    if (name == i || !t.isIdentifier(name) || !(t.is(end, ";") || t.is(end, "="))) continue;
    const std::string_view cache = t.text(name);
    if (!persistent(name)) continue;
    // A function that returns from the cache: `return cache...;` or `return it->second...;` after a
    // lookup in it.
    for (int r = name + 2; r < t.size(); ++r) {
      if (!t.is(r, "return")) continue;
      int body = r;
      while (body >= 0 && !(t.is(body, "{") && t.match(body) > r && t.is(body - 1, ")"))) --body;
      if (body < 0) continue;
      bool used = false, keyed = false, returned = false;
      for (int k = body; k < t.match(body); ++k) {
        used = used || t.is(k, cache);
        keyed = keyed || t.is(k, "data_ptr");
      }
      for (int k = r + 1; k < t.size() && !t.is(k, ";"); ++k)
        returned = returned || t.is(k, cache) || (t.is(k, "second") && t.is(k - 1, "->"));
      if (!used || !returned) continue;
      const std::vector<int> lines{src.pythonLine(t.line(name)), src.pythonLine(t.line(r))};
      out.push_back(makeFlag(
          "cached-output", FlagSeverity::Hack, keyed ? 0.85 : 0.7,
          "The C++ source returns tensors kept in " + std::string(cache) + ", which outlives the call" +
              (keyed ? ", looked up by the input's data_ptr(): a benchmark that reuses its "
                       "input tensors gets the stored result."
                     : ": later calls can get an earlier call's result."),
          lines, excerptOf(ctx.candidate, lines)));
      return;
    }
  }
}

}  // namespace

void checkCachedOutput(const RuleContext& ctx, std::vector<Flag>& out) {
  CachedOutput(ctx, out).run();
  for (const EmbeddedSource& s : ctx.embedded().sources) cppResultCaches(ctx, s, out);
}

}  // namespace ks
