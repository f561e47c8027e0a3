#pragma once
// The flags of one candidate as a table: family, severity, source (read from the code, or measured by a
// re-run on cpu/cuda), confidence, lines, message and evidence (the numbers a probe measured, or the code
// excerpt of a static rule); the full evidence and the family's description in the tooltip.
#include <QAbstractTableModel>
#include <string>
#include <vector>

#include "core/flags/flag.h"

namespace ks {

class FlagTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    FamilyColumn,
    SeverityColumn,
    SourceColumn,
    ConfidenceColumn,
    LinesColumn,
    MessageColumn,
    EvidenceColumn,
    ColumnCount
  };

  explicit FlagTableModel(QObject* parent = nullptr);

  // `runtimeDevice`: the device the flags of origin "runtime" were measured on ("cpu", "cuda").
  void setFlags(std::vector<Flag> flags, const std::string& runtimeDevice = {});
  const Flag& flag(int row) const { return m_flags[static_cast<std::size_t>(row)]; }
  bool isRuntime(int row) const { return flag(row).origin == "runtime"; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QString source(const Flag& f) const;

  std::vector<Flag> m_flags;
  std::string m_runtimeDevice;
};

}  // namespace ks
