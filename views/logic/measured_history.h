#pragma once
// The re-runs of an open run's candidates: one list per LoadedRun row, newest first, as read from the
// results store (core/runs/candidate_history.h) plus those this session adds. Each entry says whether it
// ran the recorded program: only those are the candidate's measured number; a run of an edited version is
// history of the candidate, not a measurement of what the file records.
#include <optional>
#include <string>
#include <vector>

#include "core/runs/agreement.h"
#include "core/runs/measured_run.h"

namespace ks {

class MeasuredHistory {
 public:
  struct Entry {
    runs::MeasuredRun run;
    bool recordedProgram = false;  // it ran the program the file records, not an edit of it
  };
  using Agreement = runs::Agreement;

  MeasuredHistory() = default;
  explicit MeasuredHistory(int rows) : m_entries(static_cast<std::size_t>(rows)) {}

  int rowCount() const { return static_cast<int>(m_entries.size()); }
  // Row `row`'s entries, newest first; empty for a row out of range.
  const std::vector<Entry>& entries(int row) const;
  void setEntries(int row, std::vector<Entry> entries);  // as read, newest first
  // Adds the newest entry of `row`; an entry whose store id the row holds already is left out.
  void add(int row, Entry entry);
  // Adds every entry of `other` that this history lacks (runs recorded while this one was being read).
  void merge(const MeasuredHistory& other);

  // The newest run of the recorded program; nullptr when it was never run.
  const runs::MeasuredRun* latestOfRecorded(int row) const;
  // The newest run of the program whose code hash is `codeHash`.
  const runs::MeasuredRun* latestOfCode(int row, const std::string& codeHash) const;
  // For a repaired program's run of row `row` (MeasuredRun::repair): the newest earlier timed run of the
  // program it was repaired from whose number is the PyTorch fallback's (runs::latestFallbackRun, the rule
  // `kscope run --repair` prints as "before"); nullptr when there is none or `repaired` is no repair.
  const runs::MeasuredRun* fallbackBefore(int row, const runs::MeasuredRun& repaired) const;
  // How the newest run of the recorded program compares with `recorded` (a speedup claimed in the file):
  // runs::agreement of latestOfRecorded.
  Agreement agreement(int row, std::optional<double> recorded) const;
  int measuredRowCount() const;  // rows whose recorded program has a run

 private:
  std::vector<std::vector<Entry>> m_entries;
};

}  // namespace ks
