#pragma once
// Reads the results store's history of every candidate of a run — two indexed queries per candidate with a
// program (core/runs/candidate_history.h) — into a MeasuredHistory. One loop for the GUI's HistoryLoader
// (off the GUI thread) and `kscope report`. A store that does not exist yet is an empty history: reading
// never creates the database.
#include <atomic>
#include <filesystem>
#include <memory>
#include <string>

namespace ks {

class LoadedRun;
class MeasuredHistory;

struct HistoryRead {
  std::shared_ptr<MeasuredHistory> history;  // never null; rows read before an error keep their entries
  std::string error;                         // empty, or why (part of) the history could not be read
};

// The history of `run`, read from `sourceFile` (as the clients name it in the rows they record). Stops early
// when *cancel becomes true.
HistoryRead readHistory(const std::filesystem::path& storePath, const std::string& sourceFile,
                        const LoadedRun& run, const std::atomic<bool>* cancel = nullptr);

}  // namespace ks
