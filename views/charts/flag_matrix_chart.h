#pragma once
// The flag matrix as a chart: flagged tasks down, the 17 flag families across (headers rotated), each cell
// filled with the colour of the worst severity among that task's candidates' flags of that family, the
// number of candidates raising it, and a dark corner when a re-run's probe measured it; a legend and a
// summary line above. Clicking a raised cell asks for that task's candidates raising the family to be
// listed (familyChosen: the task table filters by the family and selects them); an empty cell or a row
// header selects the task's candidates (rowsSelected); a column header lists every candidate raising it.
//
// A QTableView over FlagMatrixModel with a small delegate rather than Qt Charts: a heat map is a grid of
// labelled cells, which Qt Charts has no series for; item views draw it crisply at any size, scroll through
// thousands of tasks with fixed section sizes (no per-row measuring), give tooltips and keyboard navigation,
// and their model is what the tests read (counts, severities, colours) and click.
#include <QList>
#include <QWidget>
#include <memory>

class QLabel;
class QTableView;

namespace ks {

class FlagMatrixModel;
class LoadedRun;
class MeasuredHistory;

class FlagMatrixChart : public QWidget {
  Q_OBJECT

 public:
  explicit FlagMatrixChart(QWidget* parent = nullptr);

  void setRun(std::shared_ptr<const LoadedRun> run);
  void setHistory(std::shared_ptr<const MeasuredHistory> history);
  void refresh();  // the run's flags arrived or the history gained runs

  FlagMatrixModel* model() const { return m_model; }
  QTableView* view() const { return m_view; }
  QString summary() const;

 signals:
  void familyChosen(const QString& family, const QList<int>& rows);  // LoadedRun rows, ascending
  void rowsSelected(const QList<int>& rows);

 private:
  void rebuild();
  void cellClicked(const QModelIndex& index);
  void familyClicked(int column);

  std::shared_ptr<const LoadedRun> m_run;
  std::shared_ptr<const MeasuredHistory> m_history;
  FlagMatrixModel* m_model;
  QTableView* m_view;
  QLabel* m_summary;
  QLabel* m_legend;
};

}  // namespace ks
