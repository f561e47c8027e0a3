#include "views/logic/flag_matrix.h"

#include <algorithm>
#include <tuple>

#include "core/flags/flag_families.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/runtime_evidence.h"

namespace ks {
namespace {

FlagMatrix::Severity rank(FlagSeverity s) {
  switch (s) {
    case FlagSeverity::Hack:
      return FlagMatrix::Hack;
    case FlagSeverity::Suspicious:
      return FlagMatrix::Suspicious;
    case FlagSeverity::Benign:
      return FlagMatrix::Benign;
  }
  return FlagMatrix::None;
}

int columnOf(const std::vector<std::string>& families, const std::string& family) {
  const auto it = std::find(families.begin(), families.end(), family);
  return it == families.end() ? -1 : static_cast<int>(it - families.begin());
}

}  // namespace

FlagMatrix::FlagMatrix(const LoadedRun& run, const MeasuredHistory* history) {
  for (const FlagFamily& f : flagFamilies()) m_families.emplace_back(f.id);
  const std::size_t columns = m_families.size();
  m_familyTasks.assign(columns, 0);

  // LoadedRun rows are grouped by task, in task order (one row for a task without candidates).
  std::vector<Cell> cells(columns);
  std::vector<Severity> candidate(columns);
  std::vector<bool> candidateRuntime(columns);
  const int rows = run.rowCount();
  for (int first = 0; first < rows;) {
    const int task = run.row(first).task;
    int last = first;
    while (last < rows && run.row(last).task == task) ++last;
    std::fill(cells.begin(), cells.end(), Cell{});
    Severity worst = None;
    for (int r = first; r < last; ++r) {
      std::fill(candidate.begin(), candidate.end(), None);
      std::fill(candidateRuntime.begin(), candidateRuntime.end(), false);
      const auto note = [&](const std::string& family, Severity s, bool runtime) {
        const int c = columnOf(m_families, family);
        if (c < 0) return;
        candidate[static_cast<std::size_t>(c)] = std::max(candidate[static_cast<std::size_t>(c)], s);
        if (runtime) candidateRuntime[static_cast<std::size_t>(c)] = true;
      };
      for (const Flag& f : run.flags(r)) note(f.family, rank(f.severity), false);
      const runs::MeasuredRun* measured = history ? history->latestOfRecorded(r) : nullptr;
      if (measured && measured->result)
        for (const auto& f : measured->result->runtimeFlags) {
          FlagSeverity s;
          if (runtimeSeverity(f.severity, &s)) note(f.family, rank(s), true);
        }
      for (std::size_t c = 0; c < columns; ++c) {
        if (candidate[c] == None) continue;
        cells[c].worst = std::max(cells[c].worst, candidate[c]);
        cells[c].runtime = cells[c].runtime || candidateRuntime[c];
        ++cells[c].candidates;
        worst = std::max(worst, candidate[c]);
      }
    }
    if (worst >= Suspicious) {
      m_tasks.push_back({task, first, last - first, worst});
      m_cells.insert(m_cells.end(), cells.begin(), cells.end());
    }
    first = last;
  }

  // By level, then number, then key: the order of the rows' cells follows.
  std::vector<std::size_t> order(m_tasks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto& tasks = run.run().tasks;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Task& x = tasks[static_cast<std::size_t>(m_tasks[a].task)];
    const Task& y = tasks[static_cast<std::size_t>(m_tasks[b].task)];
    return std::tie(x.level, x.number) < std::tie(y.level, y.number) ||
           (std::tie(x.level, x.number) == std::tie(y.level, y.number) && x.key() < y.key());
  });
  std::vector<TaskRow> sortedTasks;
  std::vector<Cell> sortedCells;
  sortedTasks.reserve(m_tasks.size());
  sortedCells.reserve(m_cells.size());
  for (std::size_t i : order) {
    sortedTasks.push_back(m_tasks[i]);
    sortedCells.insert(sortedCells.end(), m_cells.begin() + static_cast<std::ptrdiff_t>(i * columns),
                       m_cells.begin() + static_cast<std::ptrdiff_t>((i + 1) * columns));
  }
  m_tasks = std::move(sortedTasks);
  m_cells = std::move(sortedCells);

  for (int r = 0; r < rowCount(); ++r) {
    bool runtime = false;
    for (int c = 0; c < columnCount(); ++c) {
      if (cell(r, c).worst != None) ++m_familyTasks[static_cast<std::size_t>(c)];
      runtime = runtime || cell(r, c).runtime;
    }
    m_hackTasks += m_tasks[static_cast<std::size_t>(r)].worst == Hack;
    m_runtimeTasks += runtime;
  }
}

std::vector<FlagMatrix::Entry> FlagMatrix::entries(const LoadedRun& run, const MeasuredHistory* history,
                                                   int row, int column) const {
  std::vector<Entry> out;
  if (row < 0 || row >= rowCount() || column < 0 || column >= columnCount()) return out;
  const TaskRow& t = m_tasks[static_cast<std::size_t>(row)];
  const std::string& family = m_families[static_cast<std::size_t>(column)];
  for (int r = t.firstRow; r < t.firstRow + t.rowCount; ++r) {
    for (const Flag& f : run.flags(r))
      if (f.family == family) out.push_back({r, f, {}});
    const RuntimeEvidence runtime = runtimeEvidence(history, r);
    for (const Flag& f : runtime.flags)
      if (f.family == family) out.push_back({r, f, runtime.device});
  }
  return out;
}

std::vector<int> FlagMatrix::rowsOf(const LoadedRun& run, const MeasuredHistory* history, int row,
                                    int column) const {
  std::vector<int> rows;
  if (row < 0 || row >= rowCount()) return rows;
  if (column < 0) {
    const TaskRow& t = m_tasks[static_cast<std::size_t>(row)];
    for (int r = t.firstRow; r < t.firstRow + t.rowCount; ++r) rows.push_back(r);
    return rows;
  }
  for (const Entry& e : entries(run, history, row, column))
    if (rows.empty() || rows.back() != e.row) rows.push_back(e.row);
  return rows;
}

}  // namespace ks
