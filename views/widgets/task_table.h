#pragma once
// The task list: a filter bar (free text, level, flag family, speedup range) over a sortable table of every
// candidate in the run. The vs box chooses the recorded series (baseline and mode) that the Speedup column
// shows and the range applies to; the choice is the open run's (OpenRun::series), shared with the Charts
// tab. Reports the current row, the rows shown and the series chosen.
#include <QList>
#include <QWidget>
#include <memory>

#include "views/logic/speedup_series.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QTableView;

namespace ks {

class CandidateFilterProxy;
class CandidateTableModel;
class LoadedRun;
class MeasuredHistory;
class OpenRun;

class TaskTable : public QWidget {
  Q_OBJECT

 public:
  explicit TaskTable(QWidget* parent = nullptr);

  // Follows `open` from now on: its run, flags, history and current row (docs/architecture.md).
  void observe(const OpenRun* open);
  void setRun(std::shared_ptr<const LoadedRun> run);
  // The run's flagged snapshot arrived: flag column, flag filter choices, counts.
  void refreshFlags(std::shared_ptr<const LoadedRun> flagged);
  // The Measured column's results; refreshMeasured() after the history gained runs.
  void setHistory(std::shared_ptr<const MeasuredHistory> history);
  void refreshMeasured();
  // Shows only the candidates raising flag family `family` (static or runtime); false when none does.
  bool filterByFamily(const QString& family);
  int currentRow() const;  // LoadedRun row, -1 when none
  void setCurrentRow(int row);
  QList<int> selectedRows() const;  // LoadedRun rows, ascending
  // The series the Speedup column shows; setSeries chooses one the run records (others are ignored) and
  // is kept for the next run that records it.
  SpeedupSeries series() const;
  void setSeries(const SpeedupSeries& series);
  int shownCount() const;
  // "250 tasks · 231 with code · 12 flagged · showing 40"
  QString summaryText() const;

  QTableView* view() const { return m_view; }
  CandidateFilterProxy* proxy() const { return m_proxy; }
  CandidateTableModel* model() const { return m_model; }

 public slots:
  // Selects the given LoadedRun rows that the filter shows and makes the first current.
  void selectRows(const QList<int>& rows);
  void focusFilter();
  void clearFilters();

 signals:
  void currentRowChanged(int row);
  void seriesChosen(const SpeedupSeries& series);  // the user picked another in the vs box
  void shownCountChanged(int shown);
  void message(const QString& text);  // something the user should read in the status bar

 private:
  void followFilteredOutCurrent();  // the current task was filtered out: the first one shown, or none
  void buildFilterBar();
  void fillFilterChoices();
  void applyFilters();
  void showDefaultColumns();
  void chooseSeries(int index);        // the vs box's choice: the Speedup column, the range, seriesChosen
  void fitHeader(int column);          // widens `column` to its header's words
  int speedupWidth(int series) const;  // the width a speedup column starts at
  void showHeaderMenu(const QPoint& pos);

  std::shared_ptr<const LoadedRun> m_run;
  CandidateTableModel* m_model;
  CandidateFilterProxy* m_proxy;
  QTableView* m_view;
  QLineEdit* m_text = nullptr;
  QComboBox* m_level = nullptr;
  QComboBox* m_flags = nullptr;
  QComboBox* m_baseline = nullptr;
  QDoubleSpinBox* m_min = nullptr;
  QDoubleSpinBox* m_max = nullptr;
  bool m_filling = false;
  int m_shownRow = -1;         // the source row last given to currentRowChanged
  SpeedupSeries m_wantSeries;  // chosen for the next run (the open run's when observing one)
};

}  // namespace ks
