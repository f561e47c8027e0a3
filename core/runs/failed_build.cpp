#include "core/runs/failed_build.h"

#include <regex>
#include <vector>

namespace ks::runs {
namespace {

int firstErrorLine(const std::vector<protocol::Diagnostic>& diagnostics) {
  for (const protocol::Diagnostic& d : diagnostics)
    if (d.severity == "error" && d.pythonLine) return *d.pythonLine;
  return 0;
}

// The 1-based line of `program` that names `name` as a Python string ('name' or "name"), 0 when none.
int lineNaming(std::string_view program, const std::string& name) {
  if (program.empty() || name.empty()) return 0;
  for (const std::string& quoted : {"'" + name + "'", "\"" + name + "\""}) {
    const std::size_t at = program.find(quoted);
    if (at == std::string_view::npos) continue;
    int line = 1;
    for (std::size_t i = 0; i < at; ++i) line += program[i] == '\n';
    return line;
  }
  return 0;
}

void placeOnLine(FailedBuild& f, const std::vector<protocol::Diagnostic>& diagnostics,
                 std::string_view program) {
  f.line = firstErrorLine(diagnostics);
  if (f.line == 0) f.line = lineNaming(program, repair::classifyBuildFailure(f.evidence, program).name);
}

}  // namespace

std::optional<FailedBuild> failedBuild(const MeasuredRun& run, std::string_view program) {
  if (run.result) {
    const protocol::ExtensionBuild* b = protocol::failedCandidateBuild(run.result->build);
    if (!b) return std::nullopt;
    FailedBuild f{b->name, repair::causeFromName(b->cause).value_or(repair::BuildCause::Unknown),
                  b->causeEvidence, 0, true};
    placeOnLine(f, b->diagnostics, program);
    return f;
  }
  if (!run.error || run.error->kind != protocol::ErrorKind::Build || run.error->program == "reference")
    return std::nullopt;
  // The runner's message: "building extension 'x' failed (bound-kernel): <first compiler lines>".
  const protocol::ErrorInfo& e = *run.error;
  FailedBuild f;
  static const std::regex message("building extension '([^']*)' failed(?: \\(([\\w-]+)\\))?: ?");
  std::smatch m;
  if (std::regex_search(e.message, m, message)) {
    f.extension = m[1].str();
    f.cause = repair::causeFromName(m[2].str()).value_or(repair::BuildCause::Unknown);
    f.evidence = e.message.substr(static_cast<std::size_t>(m.position(0) + m.length(0)));
  } else {  // a native kernel's build, or an older runner: classify what it printed and its diagnostics
    std::string printed = e.message;
    for (const protocol::Diagnostic& d : e.diagnostics)
      printed += "\n" + d.file + "(" + std::to_string(d.line) + "): " + d.severity + ": " + d.message;
    const repair::BuildFailure c = repair::classifyBuildFailure(printed, program);
    f.cause = c.cause;
    f.evidence = c.evidence;
  }
  if (f.evidence.size() > 300) f.evidence = f.evidence.substr(0, f.evidence.find('\n', 0));
  placeOnLine(f, e.diagnostics, program);
  if (f.line == 0 && e.line) f.line = *e.line;
  return f;
}

}  // namespace ks::runs
