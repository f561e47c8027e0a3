#include "views/logic/counted.h"

namespace ks {

QString counted(qsizetype n, const QString& singular, const QString& plural) {
  return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? singular : plural);
}

}  // namespace ks
