#pragma once
// The run the explorer has open, observed by every pane: its path, the loaded run (a snapshot that never
// changes; the flagged one replaces it when the static checks finish), the results history of its
// candidates (a snapshot too, replaced as runs arrive) and the current row. Views take an OpenRun and
// subscribe to the signals of what they show (docs/architecture.md, "How the GUI is wired"); the window and
// its controllers are the only ones that change it. Like qrenderdoc's CaptureContext, it is one object the
// panels register with instead of being pushed into one by one.
#include <QObject>
#include <QString>
#include <memory>

#include "views/logic/measured_history.h"
#include "views/logic/speedup_series.h"

namespace ks {

class LoadedRun;

class OpenRun : public QObject {
  Q_OBJECT

 public:
  explicit OpenRun(QObject* parent = nullptr);

  const QString& path() const { return m_path; }
  // Stable references: a caller holding one sees each replacement.
  const std::shared_ptr<const LoadedRun>& run() const { return m_run; }
  const std::shared_ptr<const MeasuredHistory>& history() const { return m_history; }
  int currentRow() const { return m_current; }  // a LoadedRun row; -1: none
  // The recorded speedup series the views show (the task table's Speedup column and vs box, the charts, the
  // search tree, the header, the report): one the run records, its first unless the user chose another.
  const SpeedupSeries& series() const { return m_series; }
  // `run` is a snapshot of the read open now (before or after its flags).
  bool isOpen(const std::shared_ptr<const LoadedRun>& run) const;

  // A new run (nullptr: none) with an empty history and no current row: opened, then currentChanged(-1)
  // unless a subscriber chose a row meanwhile. Its series is the one last chosen when the run records it,
  // else the run's first (LoadedRun::series).
  void open(const QString& path, std::shared_ptr<const LoadedRun> run);
  // The open run's snapshot with its flags; ignored (false) for another read.
  bool setFlagged(std::shared_ptr<const LoadedRun> flagged);
  // The history read from the results store for `run`; runs added meanwhile are kept. False for another run.
  bool setHistory(const std::shared_ptr<const LoadedRun>& run, std::shared_ptr<MeasuredHistory> history);
  // Row `row` of the open run gained a run (the newest); its history snapshot is replaced.
  void addRun(int row, MeasuredHistory::Entry entry);
  void setCurrentRow(int row);
  // Shows `series` (seriesChanged) and remembers it for the next run; false, and nothing changes, when the
  // open run does not record it. With no run open it is only remembered.
  bool setSeries(const SpeedupSeries& series);
  // The series a run opened later starts with when it records it (the window's saved choice).
  void setPreferredSeries(const SpeedupSeries& series) { m_preferred = series; }
  const SpeedupSeries& preferredSeries() const { return m_preferred; }

 signals:
  void opened();                 // path, run, an empty history and no current row
  void flagsChanged();           // run() is the flagged snapshot of the same read
  void historyChanged();         // the whole history was replaced (read from the store)
  void runAdded(int row);        // row `row` gained its newest run
  void currentChanged(int row);  // the row the user is looking at
  void seriesChanged();          // series() is another one of the same run

 private:
  QString m_path;
  std::shared_ptr<const LoadedRun> m_run;
  std::shared_ptr<const MeasuredHistory> m_history;
  int m_current = -1;
  SpeedupSeries m_series;
  SpeedupSeries m_preferred;
};

}  // namespace ks
