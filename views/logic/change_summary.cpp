#include "views/logic/change_summary.h"

#include <QRegularExpression>

#include "core/pysource/embedded_sources.h"
#include "views/logic/line_diff.h"

namespace ks {
namespace {

QStringList torchCalls(const QString& code) {
  static const QRegularExpression call(QStringLiteral(R"(\b(torch(?:\.\w+)+|F\.\w+|nn\.\w+)\s*\()"));
  QStringList calls;
  for (auto it = call.globalMatch(code); it.hasNext();) {
    const QString name = it.next().captured(1);
    if (!calls.contains(name)) calls << name;
  }
  return calls;
}

QStringList kernelNames(QString code) {
  static const QRegularExpression launchBounds(QStringLiteral(R"(__launch_bounds__\s*\([^)]*\))"));
  static const QRegularExpression kernel(QStringLiteral(R"(__global__\s+(?:[\w:<>,*&]+\s+)*?(\w+)\s*\()"));
  code.remove(launchBounds);
  QStringList names;
  for (auto it = kernel.globalMatch(code); it.hasNext();) {
    const QString name = it.next().captured(1);
    if (!names.contains(name)) names << name;
  }
  return names;
}

QStringList minus(const QStringList& a, const QStringList& b) {
  QStringList out;
  for (const QString& s : a)
    if (!b.contains(s)) out << s;
  return out;
}

}  // namespace

ChangeSummary ChangeSummary::compute(const std::string& reference, const std::string& candidate) {
  ChangeSummary summary;
  const LineDiff diff = LineDiff::compute(reference, candidate);
  summary.linesAdded = diff.insertions();
  summary.linesRemoved = diff.deletions();
  const QString candidateText = QString::fromStdString(candidate);
  summary.kernels = kernelNames(candidateText);
  for (const EmbeddedSource& source : extractEmbeddedSources(candidate)) {
    const QString module = QString::fromStdString(source.module);
    if (!module.isEmpty() && !summary.modules.contains(module)) summary.modules << module;
  }
  const QStringList before = torchCalls(QString::fromStdString(reference));
  const QStringList after = torchCalls(candidateText);
  summary.torchOpsRemoved = minus(before, after);
  summary.torchOpsAdded = minus(after, before);
  return summary;
}

}  // namespace ks
