#pragma once
// The flags raised on the selected candidate, hacks first: the static ones read from its code and, once its
// recorded program was re-run, the runtime flags of the newest run (RuntimeEvidence), marked as such with
// the numbers the probes measured; a line above the table says which run they come from. Clicking a flag (or
// pressing Enter on it) asks for its first evidence line to be shown in the candidate editor (lineRequested,
// 1-based program line).
#include <QWidget>
#include <memory>

class QLabel;
class QStackedWidget;
class QTableView;

namespace ks {

class FlagTableModel;
class LoadedRun;
class MeasuredHistory;
class OpenRun;

class FlagsView : public QWidget {
  Q_OBJECT

 public:
  explicit FlagsView(QWidget* parent = nullptr);

  // Follows `open` from now on: its run, flags, history and current row (docs/architecture.md).
  void observe(const OpenRun* open);
  void showRow(std::shared_ptr<const LoadedRun> run, int row);  // row < 0: nothing selected
  // The re-runs whose runtime flags are shown; refreshMeasured() after the history gained runs.
  void setHistory(std::shared_ptr<const MeasuredHistory> history);
  void refreshMeasured();
  QTableView* view() const { return m_view; }
  const FlagTableModel* model() const { return m_model; }
  QString sourceText() const;  // the line naming the run the runtime flags come from ("" when none)

 signals:
  void lineRequested(int line);

 private:
  void activate(const QModelIndex& index);

  std::shared_ptr<const LoadedRun> m_run;
  std::shared_ptr<const MeasuredHistory> m_history;
  int m_row = -1;
  FlagTableModel* m_model;
  QTableView* m_view;
  QLabel* m_source;
  QLabel* m_empty;
  QStackedWidget* m_stack;
};

}  // namespace ks
