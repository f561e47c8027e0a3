#include "views/logic/code_problems.h"

#include <QObject>
#include <algorithm>

#include "core/repair/build_cause.h"
#include "core/runs/failed_build.h"

namespace ks {
namespace {

CodeProblem::Severity severityOf(const std::string& severity) {
  if (severity == "error") return CodeProblem::Severity::Error;
  if (severity == "warning") return CodeProblem::Severity::Warning;
  return CodeProblem::Severity::Note;
}

void addDiagnostics(std::vector<CodeProblem>& out, const std::vector<protocol::Diagnostic>& diagnostics,
                    bool caught) {
  for (const protocol::Diagnostic& d : diagnostics) {
    QString where = QString::fromStdString(d.file);
    if (d.line > 0) where += QStringLiteral(":%1").arg(d.line);
    if (d.column > 0) where += QStringLiteral(":%1").arg(d.column);
    CodeProblem p;
    p.line = d.pythonLine.value_or(0);
    p.severity = caught ? CodeProblem::Severity::Warning : severityOf(d.severity);
    p.message = QStringLiteral("%1: %2%3")
                    .arg(where, QString::fromStdString(d.message),
                         caught ? QObject::tr(" (a build the program caught)") : QString());
    out.push_back(std::move(p));
  }
}

QString causeText(const runs::FailedBuild& f) {
  QString text = QObject::tr("cause: %1 — %2")
                     .arg(QString::fromUtf8(repair::causeName(f.cause)),
                          QString::fromUtf8(repair::causeDescription(f.cause)));
  if (repair::causeIsRepairable(f.cause))
    text += QObject::tr("; Repair (Ctrl+Shift+R) shows the fix as a diff");
  if (f.fellBack) text = QObject::tr("this number is the PyTorch fallback's: %1").arg(text);
  return text;
}

}  // namespace

QString buildCauseText(const runs::MeasuredRun& run) {
  const auto failed = runs::failedBuild(run);
  return failed ? causeText(*failed) : QString();
}

std::vector<CodeProblem> candidateProblems(const runs::MeasuredRun& run, const std::string& program) {
  std::vector<CodeProblem> out;
  if (const auto failed = runs::failedBuild(run, program))
    out.push_back({failed->line,
                   failed->fellBack ? CodeProblem::Severity::Warning : CodeProblem::Severity::Error,
                   causeText(*failed)});
  if (run.result) {
    for (const protocol::ExtensionBuild& b : run.result->build.extensions)
      if (!b.ok && b.program == "candidate") addDiagnostics(out, b.diagnostics, true);
    return out;
  }
  if (!run.error) return out;
  const protocol::ErrorInfo& e = *run.error;
  addDiagnostics(out, e.diagnostics, false);
  const bool candidateLine = e.program == "candidate" && e.line;
  // The candidate's frames, outer first as Python prints them; the innermost one at the error's own line
  // carries the message instead.
  const protocol::TraceFrame* innermost = nullptr;
  for (const protocol::TraceFrame& f : e.traceback)
    if (f.program == "candidate") innermost = &f;
  for (const protocol::TraceFrame& f : e.traceback) {
    if (f.program != "candidate" || (candidateLine && &f == innermost && f.line == *e.line)) continue;
    out.push_back({f.line, CodeProblem::Severity::Note,
                   QObject::tr("traceback: in %1: %2")
                       .arg(QString::fromStdString(f.function), QString::fromStdString(f.text))});
  }
  if (candidateLine && !e.diagnostics.empty()) return out;  // the compiler's lines say it already
  QString message =
      QStringLiteral("%1 error: %2")
          .arg(QString::fromUtf8(protocol::errorKindName(e.kind)), QString::fromStdString(e.message));
  if (e.program == "reference")
    message += e.line ? QObject::tr(" (the reference program, its line %1)").arg(*e.line)
                      : QObject::tr(" (the reference program)");
  out.push_back({candidateLine ? *e.line : 0, CodeProblem::Severity::Error, message});
  return out;
}

namespace {

// The 1-based line of `program` where __global__ kernel `name` is defined; 0 when not found.
int kernelLine(const std::string& program, const std::string& demangled) {
  const std::size_t end = demangled.find_first_of("(<");
  std::string name = demangled.substr(0, end);
  if (const std::size_t space = name.rfind(' '); space != std::string::npos) name = name.substr(space + 1);
  if (name.empty()) return 0;
  for (std::size_t at = program.find(name); at != std::string::npos; at = program.find(name, at + 1)) {
    const std::size_t lineStart = program.rfind('\n', at) + 1;  // npos + 1 == 0
    const std::size_t global = program.find("__global__", lineStart > 200 ? lineStart - 200 : 0);
    const bool isDefinition =
        global != std::string::npos && global < at && program.find_first_of(";{", global) > at;
    if (!isDefinition) continue;
    return 1 + static_cast<int>(std::count(program.begin(), program.begin() + static_cast<long>(at), '\n'));
  }
  return 0;
}

}  // namespace

std::vector<CodeProblem> compileProblems(const nvcc::BuildResult& result, const std::string& program) {
  std::vector<CodeProblem> out;
  if (!result.ok) {
    const repair::BuildFailure f = repair::classifyBuildFailure(result.log, program);
    int line = 0;
    for (const nvcc::Diagnostic& d : result.diagnostics)
      if (d.severity == nvcc::Severity::Error && d.pythonLine) {
        line = *d.pythonLine;
        break;
      }
    QString text = QObject::tr("cause: %1 — %2")
                       .arg(QString::fromUtf8(repair::causeName(f.cause)),
                            QString::fromUtf8(repair::causeDescription(f.cause)));
    if (repair::causeIsRepairable(f.cause))
      text += QObject::tr("; Repair (Ctrl+Shift+R) shows the fix as a diff");
    out.push_back({line, CodeProblem::Severity::Error, text});
  }
  for (const nvcc::Diagnostic& d : result.diagnostics) {
    const bool error = d.severity == nvcc::Severity::Error;
    if (!error && !(d.severity == nvcc::Severity::Warning && d.pythonLine)) continue;
    out.push_back({d.pythonLine.value_or(0),
                   error ? CodeProblem::Severity::Error : CodeProblem::Severity::Warning,
                   QString::fromStdString(d.toString())});
  }
  for (const nvcc::KernelResources& k : result.kernels)
    out.push_back({kernelLine(program, k.name), CodeProblem::Severity::Note,
                   QObject::tr("ptxas %1: %2 registers, %3 B shared, %4 B stack, spills %5/%6 B (%7)")
                       .arg(QString::fromStdString(k.arch))
                       .arg(k.registers)
                       .arg(k.sharedBytes)
                       .arg(k.stackBytes)
                       .arg(k.spillStores)
                       .arg(k.spillLoads)
                       .arg(QString::fromStdString(k.name))});
  return out;
}

}  // namespace ks
