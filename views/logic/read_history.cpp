#include "views/logic/read_history.h"

#include <system_error>
#include <utility>
#include <vector>

#include "core/hash/sha256.h"
#include "core/runs/candidate_history.h"
#include "core/store/result_store.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"

namespace ks {

HistoryRead readHistory(const std::filesystem::path& storePath, const std::string& sourceFile,
                        const LoadedRun& run, const std::atomic<bool>* cancel) {
  HistoryRead read{std::make_shared<MeasuredHistory>(run.rowCount()), {}};
  std::error_code ec;
  if (!std::filesystem::exists(storePath, ec)) return read;
  auto opened = store::ResultStore::open(storePath);
  if (!opened) {
    read.error = opened.error;
    return read;
  }
  for (int row = 0; row < run.rowCount() && !(cancel && *cancel); ++row) {
    const Candidate* c = run.candidate(row);
    if (!c || !c->code) continue;
    std::string program;
    try {  // read back from the run file, which may have been rewritten since it was opened
      program = c->code.value();
    } catch (const TextReadError&) {
      continue;
    }
    const std::string hash = hash::codeHash(program);
    auto runs = runs::candidateHistory(**opened.value, {sourceFile, run.task(row).key(), c->id, hash});
    if (!runs) {
      read.error = runs.error;
      return read;
    }
    std::vector<MeasuredHistory::Entry> entries;
    for (runs::MeasuredRun& r : *runs.value) {
      const bool recorded = r.row.codeHash == hash;
      entries.push_back({std::move(r), recorded});
    }
    read.history->setEntries(row, std::move(entries));
  }
  return read;
}

}  // namespace ks
