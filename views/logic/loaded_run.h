#pragma once
// What the explorer shows: a run as read from a file, flattened into rows (one per candidate, plus one per
// task that has no candidate), with the static flags KernelScope raises on each candidate. Views share it
// as std::shared_ptr<const LoadedRun>, and it never changes once shared. The flags come in a second step:
// checkFlags() reads the run (from any thread) and withFlags() makes a new snapshot of the same read with
// them, sharing the file's data, so a large run is on screen before its checks are done. OpenRun
// (views/logic/open_run.h) publishes the flagged snapshot in place of the first one.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/flags/flag.h"
#include "core/model/run_file.h"
#include "views/logic/speedup_series.h"

class QThreadPool;

namespace ks {

class LoadedRun {
 public:
  struct Row {
    int task = 0;
    int candidate = -1;  // -1: the task has no candidate
  };
  struct FlagCheck {
    std::vector<std::vector<Flag>> flags;  // one list per row
    std::vector<LoadIssue> issues;         // candidates the checks failed on
  };

  explicit LoadedRun(RunFile run);  // flags not checked yet
  // Flags known already: one list per row (shorter lists are padded with empty ones).
  LoadedRun(RunFile run, std::vector<std::vector<Flag>> flags);

  // Runs checkStatic on every candidate with code, spread over `pool`'s threads (not the global pool,
  // which Qt's raster painting shares). Reads the run only. `progress` gets the fraction done and is called
  // from the pool's threads. nullopt when *cancel became true.
  std::optional<FlagCheck> checkFlags(QThreadPool* pool, const std::function<void(double)>& progress = {},
                                      const std::atomic<bool>* cancel = nullptr) const;
  // This read with `check`'s flags, and the issues of candidates the checks failed on added to run().issues.
  std::shared_ptr<const LoadedRun> withFlags(FlagCheck check) const;
  bool flagsChecked() const { return m_flagsChecked; }
  // Both are snapshots of one read of a file (before and after its flags): a re-run queued on one belongs
  // to the other.
  bool sameRead(const LoadedRun& other) const { return m_read == other.m_read; }

  const RunFile& run() const { return m_file->run; }
  int rowCount() const { return static_cast<int>(m_file->rows.size()); }
  const Row& row(int row) const { return m_file->rows[static_cast<std::size_t>(row)]; }
  const Task& task(int row) const;
  const Candidate* candidate(int row) const;  // nullptr for a task without candidates
  const std::vector<Flag>& flags(int row) const { return m_flags[static_cast<std::size_t>(row)]; }

  // Every (baseline, mode) a recorded speedup names (recordedSeries: "default" first when recorded, then in
  // order of appearance; never empty). The first is the series a view shows until the user picks another.
  const std::vector<SpeedupSeries>& series() const { return m_file->series; }
  // The index of `s` in series(); -1 when the file does not record it.
  int seriesIndex(const SpeedupSeries& s) const;

  int rowsWithCode() const { return m_file->rowsWithCode; }
  int rowsFlagged() const { return m_rowsFlagged; }  // rows with static flags that isFlagged (flag_counts.h)
  // The row of candidate `candidateId` of task `taskKey` (empty id: the task's first row); -1 if none.
  int findRow(const std::string& taskKey, const std::string& candidateId) const;

 private:
  struct File {  // what the snapshots of one read share
    RunFile run;
    std::vector<Row> rows;
    std::vector<SpeedupSeries> series;
    int rowsWithCode = 0;
  };
  LoadedRun(std::shared_ptr<const File> file, std::uint64_t read);
  void applyFlags(std::vector<std::vector<Flag>> flags);  // while constructing only

  std::shared_ptr<const File> m_file;
  std::uint64_t m_read;  // numbers the read; withFlags keeps it
  std::vector<std::vector<Flag>> m_flags;
  bool m_flagsChecked = false;
  int m_rowsFlagged = 0;
};

}  // namespace ks
