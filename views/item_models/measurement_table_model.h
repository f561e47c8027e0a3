#pragma once
// A candidate's numbers side by side: the speedups its file claims (one row per recorded measurement), then
// every re-run the results store holds for it, newest first — with what ran (the recorded program or an
// edit), where, the outcome, the speedup with its spread, the largest error, the gap between the two
// clocks and the kernels the candidate launched.
#include <QAbstractTableModel>
#include <memory>

#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"

namespace ks {

class MeasurementTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    WhenColumn,
    WhatColumn,
    DeviceColumn,
    OutcomeColumn,
    SpeedupColumn,
    VsColumn,
    MaxErrorColumn,
    ClockGapColumn,
    KernelsColumn,
    OriginColumn,
    ColumnCount
  };

  explicit MeasurementTableModel(QObject* parent = nullptr);

  void showRow(std::shared_ptr<const LoadedRun> run, std::shared_ptr<const MeasuredHistory> history, int row);
  void refresh();  // the history gained runs

  int claimCount() const;  // rows 0 .. claimCount()-1 are the file's claims
  // The re-run on table row `row`; nullptr for a claim.
  const MeasuredHistory::Entry* entry(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QVariant claimData(const Measurement& m, int column, int role) const;
  QVariant runData(const MeasuredHistory::Entry& e, int column, int role) const;
  const Candidate* candidate() const;

  std::shared_ptr<const LoadedRun> m_run;
  std::shared_ptr<const MeasuredHistory> m_history;
  int m_row = -1;
};

}  // namespace ks
