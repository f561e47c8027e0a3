#pragma once
// The stored re-runs of one candidate of an open file, newest first: every row of its recorded program
// (matched by code hash, whichever file, candidate id or client recorded it: the same program text is the
// same program) and every row recorded for that candidate from this same file (its edited versions).
#include <string>
#include <vector>

#include "core/runs/measured_run.h"
#include "core/store/expected.h"
#include "core/store/result_store.h"

namespace ks::runs {

struct CandidateKey {
  std::string sourceFile;  // as the rows of this client name it
  std::string taskKey;
  std::string candidateId;
  std::string recordedCodeHash;  // "sha256:<hex>" of the recorded program
};

store::Expected<std::vector<MeasuredRun>> candidateHistory(const store::ResultStore& store,
                                                           const CandidateKey& key);

// The newest timed run in `history` of the program with `codeHash` whose number is its PyTorch fallback's
// (fallback_note.h): what `kscope run --repair` shows beside the repaired kernel's number. nullptr when none.
const MeasuredRun* latestFallbackRun(const std::vector<MeasuredRun>& history, const std::string& codeHash);

}  // namespace ks::runs
