// module-shadowing: the candidate changes what `import` finds or writes files outside a temporary folder:
// sys.path edits, sys.modules entries set or removed, importlib.reload, os.chdir, files opened for writing
// (or written through pathlib, shutil, os.rename) at paths not under tempfile's folders. A file or module
// entry named like the standard library, torch, numpy or triton shadows it for every later import: a hack;
// the rest is suspicious (the runner refuses such writes and reports the attempt at runtime).
#include <algorithm>
#include <string>
#include <string_view>

#include "core/flags/rebinding.h"
#include "core/flags/rule_context.h"

namespace ks {

namespace {

constexpr std::string_view kShadowable[] = {
    "torch",  "time",    "timeit",  "os",        "sys",     "math",      "random",   "numpy",
    "triton", "gc",      "inspect", "threading", "typing",  "copy",      "json",     "re",
    "ctypes", "functools", "itertools", "collections", "importlib", "builtins", "unittest", "subprocess",
    "pickle", "signal",  "types",   "warnings",  "contextlib", "operator", "cupy"};

bool shadowable(std::string module) {
  const std::size_t dot = module.find('.');
  if (dot != std::string::npos) module = module.substr(0, dot);
  return std::find(std::begin(kShadowable), std::end(kShadowable), module) != std::end(kShadowable);
}

// The module name a written path would shadow: "timeit" for ".../timeit.py"; "" otherwise.
std::string moduleFile(const std::string& path) {
  const std::size_t slash = path.find_last_of("/\\");
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (!base.ends_with(".py")) return "";
  const std::string name = base.substr(0, base.size() - 3);
  return shadowable(name) ? name : "";
}

bool mentionsTemp(std::string_view text) {
  return text.find("tempfile") != std::string_view::npos || text.find("mkdtemp") != std::string_view::npos ||
         text.find("TemporaryDirectory") != std::string_view::npos ||
         text.find("gettempdir") != std::string_view::npos || text.find("NamedTemporaryFile") != std::string_view::npos ||
         text.find("'/tmp") != std::string_view::npos || text.find("\"/tmp") != std::string_view::npos;
}

// Whether a path expression is under a temporary folder: it names tempfile (or /tmp), or a name it uses was
// bound (reaching its statement) to something that is, up to three assignments back.
bool underTemp(const py::PyModule& m, py::TokenRange r, int statement, int depth = 3) {
  if (mentionsTemp(m.compactText(r))) return true;
  if (depth == 0) return false;
  for (const std::string& name : m.namesIn(r)) {
    const std::string base = name.substr(0, name.find('.'));
    for (const std::string& n : {name, base})
      if (const py::Assignment* a = m.reachingAssignment(n, statement)) {
        if (a->op == "as" && mentionsTemp(m.compactText(m.statements()[std::size_t(a->statement)].tokens)))
          return true;
        if (!a->value.empty() && a->statement != statement && underTemp(m, a->value, a->statement, depth - 1))
          return true;
      }
  }
  return false;
}

bool writesMode(const std::string& mode) {
  return mode.find_first_of("wax+") != std::string::npos;
}

}  // namespace

void checkModuleShadowing(const RuleContext& ctx, std::vector<Flag>& out) {
  const py::PyModule& m = ctx.candidate;
  std::vector<int> lines;
  std::vector<std::string> what;
  bool shadows = false;
  auto note = [&](const std::string& w, int line, bool hack) {
    if (std::find(what.begin(), what.end(), w) == what.end()) what.push_back(w);
    lines.push_back(line);
    shadows = shadows || hack;
  };
  // sys.modules["x"] = ..., sys.path = [...], sys.path[0] = ...
  for (const py::Assignment& a : m.assignments()) {
    if (a.op == "as") continue;
    for (const std::string& t : a.targets) {
      const std::string resolved = m.resolve(t);
      if (resolved == "sys.path" || resolved.starts_with("sys.path[")) note("sets sys.path", a.line, false);
      if (resolved.starts_with("sys.modules[") && resolved.ends_with("]")) {
        const std::string key = unquoteLiteral(std::string_view(resolved).substr(12, resolved.size() - 13));
        note("sets sys.modules['" + (key.empty() ? "<computed>" : key) + "']", a.line, key.empty() || shadowable(key));
      }
    }
  }
  for (const py::Statement& s : m.statements())
    if (s.kind == py::StmtKind::Del && m.compactText(s.tokens).find("sys.modules") != std::string::npos)
      note("deletes a sys.modules entry", s.line, true);
  for (const py::Call& c : m.calls()) {
    const std::string& f = c.resolved;
    if (f == "sys.path.insert" || f == "sys.path.append" || f == "sys.path.extend" || f == "sys.path.remove" ||
        f == "sys.path.pop" || f == "sys.path.clear" || f == "site.addsitedir" || f == "sys.meta_path.insert" ||
        f == "sys.meta_path.append" || f == "sys.path_hooks.insert" || f == "sys.path_hooks.append")
      note("calls " + f, c.line, f.starts_with("sys.meta_path") || f.starts_with("sys.path_hooks"));
    else if (f == "sys.modules.update" || f == "sys.modules.setdefault" || f == "sys.modules.pop" ||
             f == "sys.modules.__setitem__")
      note("calls " + f, c.line, true);
    else if (f == "importlib.reload" || f == "os.chdir")
      note("calls " + f, c.line, false);
    else if ((f == "open" || f == "io.open" || f == "builtins.open" || f == "os.open") && !c.args.empty()) {
      std::string mode;
      for (std::size_t i = 0; i < c.args.size(); ++i)
        if ((c.args[i].keyword.empty() && i == 1) || c.args[i].keyword == "mode" || c.args[i].keyword == "flags") {
          const auto v = m.stringValue(c.args[i].value);
          mode = v ? v->text : m.compactText(c.args[i].value);
        }
      const bool writes = f == "os.open" ? mode.find("O_WRONLY") != std::string::npos ||
                                               mode.find("O_RDWR") != std::string::npos ||
                                               mode.find("O_CREAT") != std::string::npos
                                         : writesMode(mode);
      if (!writes || underTemp(m, c.args[0].value, c.statement)) continue;
      const auto path = m.stringValue(c.args[0].value);
      const std::string shadowed = path ? moduleFile(path->text) : "";
      note(shadowed.empty() ? "writes a file outside a temporary folder (" + m.compactText(c.args[0].value) + ")"
                            : "writes " + path->text + ", shadowing the module " + shadowed,
           c.line, !shadowed.empty());
    } else if (f.ends_with(".write_text") || f.ends_with(".write_bytes") || f.starts_with("shutil.copy") ||
               f == "shutil.move" || f == "os.rename" || f == "os.replace" || f == "os.symlink" || f == "os.link") {
      const std::size_t dot = c.callee.rfind('.');
      const bool pathMethod = f.ends_with(".write_text") || f.ends_with(".write_bytes");
      // pathlib: the object written to is the callee's owner; shutil/os: the destination argument.
      bool temp = false;
      std::string target;
      if (pathMethod) {
        const std::string owner = c.callee.substr(0, dot);
        temp = mentionsTemp(owner);
        for (const std::string& n : {owner, owner.substr(0, owner.find('.'))})
          if (const py::Assignment* a = m.reachingAssignment(n, c.statement))
            temp = temp || (!a->value.empty() && underTemp(m, a->value, a->statement));
        target = owner;
      } else if (c.args.size() >= 2) {
        temp = underTemp(m, c.args[1].value, c.statement);
        target = m.compactText(c.args[1].value);
      } else {
        continue;
      }
      if (temp) continue;
      const std::string shadowed = moduleFile(target);
      note("writes " + target + " through " + f.substr(f.rfind('.') + 1) + " outside a temporary folder",
           c.line, !shadowed.empty());
    }
  }
  if (what.empty()) return;
  std::string joined;
  for (const std::string& w : what) joined += (joined.empty() ? "" : "; ") + w;
  out.push_back(makeFlag("module-shadowing", shadows ? FlagSeverity::Hack : FlagSeverity::Suspicious,
                         shadows ? 0.85 : 0.6,
                         "Changes what `import` finds or writes outside a temporary folder: " + joined + ".", lines,
                         excerptOf(m, lines)));
}

}  // namespace ks
