#pragma once
// The candidates of a run as a table: one row per LoadedRun row (task label, level, name, candidate id, step,
// recorded speedup per series, the latest speedup measured here, flag families, has code). One series is
// the chosen one (setChosenSeries: the vs box's, OpenRun::series): its column is the Speedup column, whose
// header names the baseline and mode ("Speedup vs" / "cuBLAS-max" / "(offline)", one line each; "Speedup"
// for "default"). The values
// that filtering and sorting read are computed once in setRun, so CandidateFilterProxy never goes through
// QVariant; they hold no per-row strings (a million rows: the text filter reads the task's text, the
// candidate's id and the family names where they are). A measured speedup is coloured when it disagrees with
// the recorded one by more than kDisagreement, or when the run failed; it is struck out, in the hack colour
// with a warning icon, when that run's probes raised a hack-severity runtime flag. The flag values (families,
// worst severity, the Flags column) count the static flags and the runtime flags of the newest re-run of the
// recorded program.
#include <QAbstractTableModel>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/speedup_trust.h"

namespace ks {

class CandidateTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum FixedColumn { TaskColumn, LevelColumn, NameColumn, CandidateColumn, StepColumn, FirstSpeedupColumn };

  struct RowValues {
    int task = 0;  // index into the run's tasks
    int level = 0;
    int number = 0;
    int candidateIndex = -1;  // position within its task; -1 for a task without candidates
    int step = -1;            // -1: not recorded
    int worstSeverity = 0;    // 0 none, 1 benign, 2 suspicious, 3 hack
    int flagCount = 0;
    bool hasCode = false;
    std::vector<std::uint16_t> families;  // indexes into familyIds()
  };

  explicit CandidateTableModel(QObject* parent = nullptr);

  void setRun(std::shared_ptr<const LoadedRun> run);
  // Re-reads the run's flags (after LoadedRun::setFlags); rows stay where they are, as a layout change.
  void refreshFlags(std::shared_ptr<const LoadedRun> flagged);
  // The measured results to show (rows the history does not cover show none).
  bool setHistory(std::shared_ptr<const MeasuredHistory> history);  // as refreshMeasured
  // The history gained runs. True when a row's runtime flags changed, which changes the flag values: that is
  // a layout change (as refreshFlags), and the filter's family choices need refreshing.
  bool refreshMeasured();
  // The families of the hack-severity runtime flags of `row`'s newest re-run (none: the Measured cell is not
  // marked).
  std::vector<std::string> runtimeHackFamilies(int row) const;
  const std::shared_ptr<const LoadedRun>& run() const { return m_run; }

  // The run's series (LoadedRun::series), one speedup column each.
  int seriesCount() const { return static_cast<int>(m_series.size()); }
  const std::vector<SpeedupSeries>& series() const { return m_series; }
  int speedupColumn(int series) const { return FirstSpeedupColumn + series; }
  int measuredColumn() const { return FirstSpeedupColumn + seriesCount(); }
  // The series the Speedup column shows (an index into series()): 0 after setRun. Its header changes.
  void setChosenSeries(int series);
  int chosenSeries() const { return m_chosen; }
  int chosenColumn() const { return speedupColumn(m_chosen); }
  // The index of series "default" (what a re-run measures against, the Measured column's claim); -1 none.
  int referenceSeries() const { return m_reference; }
  // Every task is a GEMM task: the Task column is the shape (task_label.h), titled "Shape (M×N×K)".
  bool allGemm() const { return m_allGemm; }
  int flagsColumn() const { return measuredColumn() + 1; }
  int codeColumn() const { return flagsColumn() + 1; }

  const RowValues& values(int row) const { return m_values[static_cast<std::size_t>(row)]; }
  // Lowercase "l1/12 name label" of task `task` (an index into the run's tasks): what the text filter matches
  // besides the candidate id and the flag families.
  const std::string& taskText(int task) const { return m_taskText[static_cast<std::size_t>(task)]; }
  // Whether every word (lowercase) occurs in the row's task text, candidate id or flag families.
  bool rowContains(int row, const std::string& lowercaseWord) const;
  // The recorded speedup of `row` in series index `series`; NaN when none.
  double speedup(int row, int series) const {
    return m_speedups[static_cast<std::size_t>(row) * m_series.size() + static_cast<std::size_t>(series)];
  }
  // The recorded speedup of `row` against "default" (referenceSeries); NaN when none.
  double referenceSpeedup(int row) const;
  // The speedup measured here for the recorded program (its newest run), else the one the file carries from
  // an earlier KernelScope run (fileMeasured); NaN when none or not timed.
  double measuredSpeedup(int row) const;
  MeasuredHistory::Agreement agreement(int row) const;
  // The file's own KernelScope measurement of the row (origin "measured", Candidate::lastMeasured), which
  // the Measured column shows when the results store has no re-run of the recorded program; null otherwise.
  const Measurement* fileMeasured(int row) const;
  // Flag families raised in this run (catalog order, then unknown ids), with the number of rows raising each.
  const std::vector<std::string>& familyIds() const { return m_familyIds; }
  const std::vector<int>& familyRowCounts() const { return m_familyRowCounts; }
  // The trust rule for `row` (speedup_trust.h): an untrusted Measured number says why first and is struck
  // through; recorded numbers are struck through when a hack was caught.
  const SpeedupTrust& trust(int row) const { return m_trust[static_cast<std::size_t>(row)]; }
  // Rows with a suspicious or hack flag, static or from the newest re-run of their recorded program.
  int flaggedRows() const { return m_flaggedRows; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  using RuntimeMarks = std::vector<std::vector<std::pair<std::string, int>>>;  // per row: family, severity
  RuntimeMarks readRuntimeMarks() const;
  void computeFlagValues();
  // setRun's values and recorded speedups of rows [first, last); chunks of rows are filled in parallel.
  void fillRows(int first, int last);
  QVariant display(int row, int column) const;
  QVariant toolTip(int row, int column) const;
  QVariant measuredDisplay(int row) const;
  QVariant fileMeasuredDisplay(int row) const;  // measuredDisplay of a row the store has no re-run of
  QString measuredToolTip(int row) const;

  std::shared_ptr<const LoadedRun> m_run;
  std::shared_ptr<const MeasuredHistory> m_history;
  std::vector<SpeedupSeries> m_series;
  int m_chosen = 0;
  int m_reference = -1;
  bool m_allGemm = false;
  std::vector<std::string> m_taskLabels;  // per task (task_label.h)
  std::vector<RowValues> m_values;
  std::vector<std::string> m_taskText;  // per task
  std::vector<double> m_speedups;       // row-major, seriesCount() per row
  RuntimeMarks m_runtime;               // the runtime flags the flag values include
  std::vector<SpeedupTrust> m_trust;    // per row
  void computeTrust();
  std::vector<std::string> m_familyIds;
  std::vector<int> m_familyRowCounts;
  int m_flaggedRows = 0;
};

}  // namespace ks
