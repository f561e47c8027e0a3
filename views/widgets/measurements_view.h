#pragma once
// Recorded against measured for the selected candidate: a headline ("recorded 19.99× (NVIDIA H100, CUDA-L1)
// · measured 17.20× ± 3.1% (this machine, cuda, 2026-05-04 12:03)") over the table of every claim and re-run
// (MeasurementTableModel), and beside them the details of the re-run selected in the table (RunResultView):
// the newest one unless the user picks another.
#include <QWidget>
#include <memory>

#include "views/logic/speedup_series.h"

class QLabel;
class QTableView;

namespace ks {

class LoadedRun;
class MeasuredHistory;
class MeasurementTableModel;
class OpenRun;
class RunResultView;

class MeasurementsView : public QWidget {
  Q_OBJECT

 public:
  explicit MeasurementsView(QWidget* parent = nullptr);

  // Follows `open` from now on: its run, flags, history and current row (docs/architecture.md).
  void observe(const OpenRun* open);
  void showRow(std::shared_ptr<const LoadedRun> run, std::shared_ptr<const MeasuredHistory> history, int row);
  void refresh();  // the history gained runs: the newest is selected
  // The series whose claim the headline puts first (OpenRun::series); a run that does not record it shows
  // its first.
  void setSeries(const SpeedupSeries& series);

  QString headline() const;
  QTableView* table() const { return m_table; }
  const MeasurementTableModel* model() const { return m_model; }
  RunResultView* resultView() const { return m_result; }

 signals:
  void lineRequested(int line);

 private:
  void updateHeadline();
  void selectNewest();
  void showSelected();

  std::shared_ptr<const LoadedRun> m_run;
  std::shared_ptr<const MeasuredHistory> m_history;
  int m_row = -1;
  SpeedupSeries m_series;
  QLabel* m_headline;
  MeasurementTableModel* m_model;
  QTableView* m_table;
  RunResultView* m_result;
};

}  // namespace ks
