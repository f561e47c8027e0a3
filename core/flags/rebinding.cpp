#include "core/flags/rebinding.h"

namespace ks {

std::string unquoteLiteral(std::string_view s) {
  if (s.size() >= 2 && (s.front() == '\'' || s.front() == '"') && s.back() == s.front())
    return std::string(s.substr(1, s.size() - 2));
  return {};
}

std::vector<Rebinding> findRebindings(const py::PyModule& m,
                                      const std::function<bool(std::string_view)>& watched) {
  std::vector<Rebinding> out;
  for (const py::Assignment& a : m.assignments()) {
    if (a.op == "as") continue;
    for (const std::string& t : a.targets) {
      const std::string resolved = m.resolve(t);
      if (watched(resolved)) out.push_back({resolved, a.line});
      // sys.modules["time"] = fake
      if (t.starts_with("sys.modules[") && t.ends_with("]")) {
        const std::string key = "sys.modules['" + unquoteLiteral(std::string_view(t).substr(12, t.size() - 13)) + "']";
        if (watched(key)) out.push_back({key, a.line});
      }
    }
  }
  for (const py::Call& c : m.calls()) {
    // setattr(torch.cuda, "synchronize", f)
    if (c.resolved == "setattr" && c.args.size() >= 2) {
      const std::string target =
          m.resolve(m.compactText(c.args[0].value)) + "." + unquoteLiteral(m.compactText(c.args[1].value));
      if (watched(target)) out.push_back({target, c.line});
    }
    // unittest.mock.patch("time.perf_counter", ...), mock.patch.object(torch.cuda, "synchronize", ...)
    if (c.resolved.ends_with("mock.patch") && !c.args.empty()) {
      const std::string target = unquoteLiteral(m.compactText(c.args[0].value));
      if (watched(target)) out.push_back({target, c.line});
    }
    if (c.resolved.ends_with("mock.patch.object") && c.args.size() >= 2) {
      const std::string target =
          m.resolve(m.compactText(c.args[0].value)) + "." + unquoteLiteral(m.compactText(c.args[1].value));
      if (watched(target)) out.push_back({target, c.line});
    }
  }
  return out;
}

}  // namespace ks
