#include "core/runs/candidate_history.h"

#include <algorithm>

#include "core/runs/fallback_note.h"

namespace ks::runs {

store::Expected<std::vector<MeasuredRun>> candidateHistory(const store::ResultStore& store,
                                                           const CandidateKey& key) {
  using Result = store::Expected<std::vector<MeasuredRun>>;
  auto sameProgram = store.history({.codeHash = key.recordedCodeHash});
  if (!sameProgram) return Result::fail(sameProgram.error);
  auto sameCandidate = store.history({.taskKey = key.taskKey, .candidateId = key.candidateId});
  if (!sameCandidate) return Result::fail(sameCandidate.error);

  std::vector<store::StoredResult> rows = std::move(*sameProgram.value);
  for (store::StoredResult& r : *sameCandidate.value)
    if (r.sourceFile == key.sourceFile && r.codeHash != key.recordedCodeHash) rows.push_back(std::move(r));
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.id > b.id; });
  std::vector<MeasuredRun> runs;
  runs.reserve(rows.size());
  for (store::StoredResult& r : rows) runs.push_back(measuredRun(std::move(r)));
  return {std::move(runs), {}};
}

const MeasuredRun* latestFallbackRun(const std::vector<MeasuredRun>& history, const std::string& codeHash) {
  const MeasuredRun* newest = nullptr;
  for (const MeasuredRun& run : history)
    if (run.row.codeHash == codeHash && run.row.speedup && run.result && fellBack(run.result->build) &&
        (!newest || run.row.id > newest->row.id))
      newest = &run;
  return newest;
}

}  // namespace ks::runs
