#include "views/item_models/flag_table_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <QStringList>

#include "core/flags/flag_families.h"

namespace ks {

FlagTableModel::FlagTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void FlagTableModel::setFlags(std::vector<Flag> flags, const std::string& runtimeDevice) {
  beginResetModel();
  m_flags = std::move(flags);
  m_runtimeDevice = runtimeDevice;
  endResetModel();
}

QString FlagTableModel::source(const Flag& f) const {
  if (f.origin != "runtime") return QString::fromStdString(f.origin);
  return m_runtimeDevice.empty() ? tr("runtime")
                                 : tr("runtime · %1").arg(QString::fromStdString(m_runtimeDevice));
}

int FlagTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_flags.size());
}

int FlagTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant FlagTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const Flag& f = flag(index.row());
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case FamilyColumn: {
        const FlagFamily* family = findFlagFamily(f.family);
        return family ? QString::fromUtf8(family->title.data(), static_cast<qsizetype>(family->title.size()))
                      : QString::fromStdString(f.family);
      }
      case SeverityColumn:
        return QString::fromUtf8(severityName(f.severity));
      case SourceColumn:
        return source(f);
      case ConfidenceColumn:
        return QStringLiteral("%1%").arg(qRound(f.confidence * 100));
      case LinesColumn: {
        QStringList lines;
        for (int line : f.lines) lines << QString::number(line);
        return lines.join(QStringLiteral(", "));
      }
      case MessageColumn:
        return QString::fromStdString(f.message);
      case EvidenceColumn:  // one line here, every line in the tooltip
        return QString::fromStdString(f.evidence).replace(QLatin1Char('\n'), QStringLiteral(" · "));
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    QString tip = QStringLiteral("%1 (%2, %3)\n%4")
                      .arg(QString::fromStdString(f.family), QString::fromUtf8(severityName(f.severity)),
                           source(f), QString::fromStdString(f.message));
    if (!f.evidence.empty())
      tip += (f.origin == "runtime" ? tr("\n\nWhat the probe measured:\n%1") : tr("\n\nEvidence:\n%1"))
                 .arg(QString::fromStdString(f.evidence));
    if (const FlagFamily* family = findFlagFamily(f.family))
      tip += QStringLiteral("\n\n") + QString::fromUtf8(family->description.data(),
                                                        static_cast<qsizetype>(family->description.size()));
    if (!f.lines.empty()) tip += tr("\n\nClick to show line %1 of the candidate.").arg(f.lines.front());
    return tip;
  }
  if (role == Qt::BackgroundRole && index.column() == SeverityColumn) {
    if (f.severity == FlagSeverity::Hack) return QBrush(QColor(0xf8, 0xd7, 0xda));
    if (f.severity == FlagSeverity::Suspicious) return QBrush(QColor(0xff, 0xf0, 0xc2));
    return QBrush(QColor(0xdd, 0xf4, 0xff));
  }
  if (role == Qt::FontRole && index.column() == SourceColumn && f.origin == "runtime") {
    QFont font;
    font.setBold(true);
    return font;
  }
  if (role == Qt::TextAlignmentRole && index.column() == ConfidenceColumn)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant FlagTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole && section == SourceColumn)
    return tr(
        "static: read from the program's code · runtime: measured by the runner's probes in the newest "
        "re-run of the recorded program, on the device named");
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case FamilyColumn:
      return tr("Family");
    case SeverityColumn:
      return tr("Severity");
    case ConfidenceColumn:
      return tr("Confidence");
    case LinesColumn:
      return tr("Lines");
    case SourceColumn:
      return tr("Source");
    case MessageColumn:
      return tr("Message");
    case EvidenceColumn:
      return tr("Evidence");
    default:
      return {};
  }
}

}  // namespace ks
