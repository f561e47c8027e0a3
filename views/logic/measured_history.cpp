#include "views/logic/measured_history.h"

#include <algorithm>

#include "core/runs/candidate_history.h"

namespace ks {

const std::vector<MeasuredHistory::Entry>& MeasuredHistory::entries(int row) const {
  static const std::vector<Entry> none;
  return row >= 0 && row < rowCount() ? m_entries[static_cast<std::size_t>(row)] : none;
}

void MeasuredHistory::setEntries(int row, std::vector<Entry> entries) {
  if (row >= 0 && row < rowCount()) m_entries[static_cast<std::size_t>(row)] = std::move(entries);
}

void MeasuredHistory::add(int row, Entry entry) {
  if (row < 0 || row >= rowCount()) return;
  auto& list = m_entries[static_cast<std::size_t>(row)];
  const std::int64_t id = entry.run.row.id;
  if (id != 0 && std::any_of(list.begin(), list.end(), [&](const Entry& e) { return e.run.row.id == id; }))
    return;
  // Newest first: by store id; one the store did not take (id 0) is the newest of all.
  const auto older = id == 0 ? list.begin() : std::find_if(list.begin(), list.end(), [&](const Entry& e) {
    return e.run.row.id != 0 && e.run.row.id < id;
  });
  list.insert(older, std::move(entry));
}

void MeasuredHistory::merge(const MeasuredHistory& other) {
  for (int row = 0; row < std::min(rowCount(), other.rowCount()); ++row)
    for (const Entry& e : other.entries(row)) add(row, e);
}

const runs::MeasuredRun* MeasuredHistory::latestOfRecorded(int row) const {
  for (const Entry& e : entries(row))
    if (e.recordedProgram) return &e.run;
  return nullptr;
}

const runs::MeasuredRun* MeasuredHistory::latestOfCode(int row, const std::string& codeHash) const {
  for (const Entry& e : entries(row))
    if (e.run.row.codeHash == codeHash) return &e.run;
  return nullptr;
}

const runs::MeasuredRun* MeasuredHistory::fallbackBefore(int row, const runs::MeasuredRun& repaired) const {
  if (!repaired.repair) return nullptr;
  const std::string& original = repaired.repair->originalCodeHash;
  std::vector<runs::MeasuredRun> earlier;  // only runs before the repaired one count, as in kscope run
  for (const Entry& e : entries(row))
    if (e.run.row.codeHash == original && (repaired.row.id <= 0 || e.run.row.id < repaired.row.id))
      earlier.push_back(e.run);
  const runs::MeasuredRun* newest = runs::latestFallbackRun(earlier, original);
  if (!newest) return nullptr;
  for (const Entry& e : entries(row))
    if (e.run.row.id == newest->row.id && e.run.row.codeHash == original) return &e.run;
  return nullptr;
}

MeasuredHistory::Agreement MeasuredHistory::agreement(int row, std::optional<double> recorded) const {
  return runs::agreement(latestOfRecorded(row), recorded);
}

int MeasuredHistory::measuredRowCount() const {
  int n = 0;
  for (int row = 0; row < rowCount(); ++row) n += latestOfRecorded(row) != nullptr;
  return n;
}

}  // namespace ks
