#pragma once
// "1 task", "250 tasks": a count with its noun. tr()'s %n needs a translation catalogue to pluralize, and
// KernelScope ships none.
#include <QString>

namespace ks {

QString counted(qsizetype n, const QString& singular, const QString& plural);

}  // namespace ks
