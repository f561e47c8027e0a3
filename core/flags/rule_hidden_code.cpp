// hidden-code: code the program keeps out of sight of a reader and of the other static rules (exec/eval of
// strings, decoded payloads, computed imports, `##`-pasted CUDA API names). What can be decoded is also read
// by the other rules (static_rules.cpp); the obfuscation itself is this flag.
#include <string>

#include "core/flags/hidden_code.h"
#include "core/flags/rule_context.h"

namespace ks {

void checkHiddenCode(const RuleContext& ctx, std::vector<Flag>& out) {
  const HiddenCodeFindings h = findHiddenCode(ctx.candidate, ctx.embedded());
  if (h.found.empty()) return;
  std::vector<int> lines;
  std::string what;
  bool runs = false;
  for (const HiddenCode& c : h.found) {
    lines.push_back(c.line);
    runs = runs || c.runsCode;
    const std::string item = c.what + " (line " + std::to_string(c.line) + ")";
    if (what.find(c.what) == std::string::npos) what += (what.empty() ? "" : "; ") + item;
  }
  std::string message = "Hides code from a reader: " + what + ".";
  if (!h.decoded.empty())
    message += " " + std::to_string(h.decoded.size()) +
               " payload(s) could be decoded and were checked by the other rules too.";
  else
    message += " Nothing could be decoded statically, so the other rules did not see that code.";
  out.push_back(makeFlag("hidden-code", runs ? FlagSeverity::Hack : FlagSeverity::Suspicious, runs ? 0.85 : 0.6,
                         message, lines, excerptOf(ctx.candidate, lines)));
}

}  // namespace ks
