#include "app/kernelscope/docs_location.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace ks {

QString documentationFolder() {
  const QString appDir = QCoreApplication::applicationDirPath();
  const QString candidates[] = {qEnvironmentVariable("KSCOPE_DOCS_DIR"),
                                QDir(appDir).filePath(QStringLiteral("../share/doc/kernelscope")),
                                QStringLiteral(KS_SOURCE_DOCS_DIR)};
  for (const QString& folder : candidates)
    if (!folder.isEmpty() && QFileInfo::exists(QDir(folder).filePath(QStringLiteral("architecture.md"))))
      return QDir(folder).canonicalPath();
  return {};
}

}  // namespace ks
