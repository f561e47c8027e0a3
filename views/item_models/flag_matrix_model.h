#pragma once
// FlagMatrix as a table: one row per flagged task (header "L1/12  Matmul_with_diagonal…"), one column per
// flag family (header: its id). A cell shows how many of the task's candidates raise the family, its
// background is the worst severity's colour (severityColor), RuntimeRole says a re-run measured it, and the
// tooltip gives the flag sentences (static and runtime, with the candidate and device).
#include <QAbstractTableModel>
#include <QColor>
#include <memory>

#include "views/logic/flag_matrix.h"

namespace ks {

class LoadedRun;
class MeasuredHistory;

class FlagMatrixModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Role { SeverityRole = Qt::UserRole, RuntimeRole };

  explicit FlagMatrixModel(QObject* parent = nullptr);

  // Recomputes the matrix (a reset); either may be null.
  void setRun(std::shared_ptr<const LoadedRun> run, std::shared_ptr<const MeasuredHistory> history);
  void refresh();  // the run's flags or the history changed
  const FlagMatrix& matrix() const { return m_matrix; }
  const std::shared_ptr<const LoadedRun>& run() const { return m_run; }
  const std::shared_ptr<const MeasuredHistory>& history() const { return m_history; }

  static QColor severityColor(FlagMatrix::Severity severity);  // invalid for None
  static QColor textColor(FlagMatrix::Severity severity);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QString cellToolTip(int row, int column) const;

  std::shared_ptr<const LoadedRun> m_run;
  std::shared_ptr<const MeasuredHistory> m_history;
  FlagMatrix m_matrix;
};

}  // namespace ks
