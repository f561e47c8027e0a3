#pragma once
// Tasks against flag families: for every task with at least one hack or suspicious flag (static, or raised
// by the newest re-run of a candidate's recorded program), one cell per family of the catalog with the worst
// severity among its candidates' flags of that family, how many candidates raise it and whether a re-run
// measured it. Computed in one pass over the run's rows and flags (about 10 ms for 100 000 rows), once per
// load, flag check or history change; the sentences of a cell are read back from the run when asked.
#include <cstdint>
#include <string>
#include <vector>

#include "core/flags/flag.h"

namespace ks {

class LoadedRun;
class MeasuredHistory;

class FlagMatrix {
 public:
  enum Severity : std::uint8_t { None = 0, Benign = 1, Suspicious = 2, Hack = 3 };
  struct Cell {
    Severity worst = None;
    bool runtime = false;  // a re-run's probe raised this family (on one of the candidates at least)
    int candidates = 0;    // candidates of the task raising the family
  };
  struct TaskRow {
    int task = 0;      // index into run().tasks
    int firstRow = 0;  // its LoadedRun rows: [firstRow, firstRow + rowCount)
    int rowCount = 0;
    Severity worst = None;
  };
  // One flag of a cell, for its tooltip.
  struct Entry {
    int row = 0;  // LoadedRun row
    Flag flag;
    std::string device;  // runtime flags: the device the run measured on
  };

  FlagMatrix() = default;
  FlagMatrix(const LoadedRun& run, const MeasuredHistory* history);

  // Columns: every family of the catalog (flag_families.h), in its order. Flags of unknown families are not
  // charted (the static rules raise none; a runner newer than this reader may).
  const std::vector<std::string>& families() const { return m_families; }
  // Rows, by level, then task number, then key.
  const std::vector<TaskRow>& tasks() const { return m_tasks; }
  int rowCount() const { return static_cast<int>(m_tasks.size()); }
  int columnCount() const { return static_cast<int>(m_families.size()); }
  const Cell& cell(int row, int column) const {
    return m_cells[static_cast<std::size_t>(row) * m_families.size() + static_cast<std::size_t>(column)];
  }
  int familyTaskCount(int column) const { return m_familyTasks[static_cast<std::size_t>(column)]; }
  int hackTaskCount() const { return m_hackTasks; }
  int runtimeTaskCount() const { return m_runtimeTasks; }  // rows with a cell measured by a re-run

  // The LoadedRun rows of matrix row `row` that raise family `column`, ascending (all its rows for
  // column < 0).
  std::vector<int> rowsOf(const LoadedRun& run, const MeasuredHistory* history, int row, int column) const;
  // The flags behind cell (row, column), static then runtime per candidate.
  std::vector<Entry> entries(const LoadedRun& run, const MeasuredHistory* history, int row, int column) const;

 private:
  std::vector<std::string> m_families;
  std::vector<TaskRow> m_tasks;
  std::vector<Cell> m_cells;
  std::vector<int> m_familyTasks;
  int m_hackTasks = 0;
  int m_runtimeTasks = 0;
};

}  // namespace ks
