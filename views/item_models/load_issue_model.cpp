#include "views/item_models/load_issue_model.h"

#include <QBrush>
#include <QColor>
#include <QFileInfo>

namespace ks {

LoadIssueModel::LoadIssueModel(QObject* parent) : QAbstractTableModel(parent) {}

void LoadIssueModel::setIssues(std::vector<LoadIssue> issues) {
  beginResetModel();
  m_issues = std::move(issues);
  endResetModel();
}

int LoadIssueModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_issues.size());
}

int LoadIssueModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant LoadIssueModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const LoadIssue& i = issue(index.row());
  const bool error = i.severity == LoadIssue::Severity::Error;
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case SeverityColumn:
        return error ? tr("error") : tr("warning");
      case LocationColumn: {
        const QString file = QFileInfo(QString::fromStdString(i.file)).fileName();
        return i.line > 0 ? QStringLiteral("%1:%2").arg(file).arg(i.line) : file;
      }
      case MessageColumn:
        return QString::fromStdString(i.message);
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) return QString::fromStdString(i.toString());
  if (role == Qt::ForegroundRole && index.column() == SeverityColumn)
    return QBrush(error ? QColor(0xcf, 0x22, 0x2e) : QColor(0x9a, 0x67, 0x00));
  return {};
}

QVariant LoadIssueModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case SeverityColumn:
      return tr("Severity");
    case LocationColumn:
      return tr("Location");
    case MessageColumn:
      return tr("Message");
    default:
      return {};
  }
}

}  // namespace ks
