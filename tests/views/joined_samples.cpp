#include "tests/views/joined_samples.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include "ks_test_paths.h"

namespace ks::test {

QString writeJoinedSamples(const QString& directory, const QStringList& samples) {
  const QString path = QDir(directory).filePath(QStringLiteral("samples.kscope.jsonl"));
  QFile out(path);
  if (!out.open(QIODevice::WriteOnly)) return {};
  const QJsonObject header{
      {"kscope_run", 1},
      {"title", "Sample runs"},
      {"description", "sample_runs/*.kscope.jsonl joined into one run by the GUI tests"}};
  out.write(QJsonDocument(header).toJson(QJsonDocument::Compact) + '\n');
  for (const QString& sample : samples) {
    QFile in(QStringLiteral(KS_SOURCE_DIR "/sample_runs/") + sample);
    if (!in.open(QIODevice::ReadOnly)) return {};
    for (const QByteArray& line : in.readAll().split('\n'))
      if (!line.trimmed().isEmpty() && !QJsonDocument::fromJson(line).object().contains("kscope_run"))
        out.write(line + '\n');
  }
  return out.error() == QFileDevice::NoError ? path : QString();
}

}  // namespace ks::test
