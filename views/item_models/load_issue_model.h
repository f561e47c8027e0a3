#pragma once
// The problems met while reading a file (LoadIssue), one per row: severity, location (file:line), message.
#include <QAbstractTableModel>
#include <vector>

#include "core/model/run_file.h"

namespace ks {

class LoadIssueModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { SeverityColumn, LocationColumn, MessageColumn, ColumnCount };

  explicit LoadIssueModel(QObject* parent = nullptr);

  void setIssues(std::vector<LoadIssue> issues);
  const LoadIssue& issue(int row) const { return m_issues[static_cast<std::size_t>(row)]; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<LoadIssue> m_issues;
};

}  // namespace ks
