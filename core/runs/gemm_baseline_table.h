#pragma once
// A GEMM candidate's measured speedups per baseline and timing method next to the CUDA-L2 release's recorded
// ones: the one table `kscope run` / `kscope batch` print and the GUI's GEMM measurements show. Recorded
// numbers pair by name and mode: the release's column name is the baseline's, and its "offline" and "server"
// CSVs are the cuda-l2-offline and cuda-l2-server methods; KernelScope's own methods have no recorded
// counterpart.
#include <optional>
#include <string>
#include <vector>

#include "core/model/candidate.h"
#include "core/protocol/evaluate_result.h"

namespace ks::runs {

struct GemmBaselineCell {
  std::optional<double> measured;  // the candidate's speedup over the baseline by this method
  std::optional<double> recorded;  // the release's, for CUDA-L2's methods
  bool disagrees = false;          // measured and recorded differ by more than the agreement rule allows
};

struct GemmBaselineRow {
  std::string baseline;              // the release's column name
  std::string fasterOf;              // "-max" rows: the layout that was faster (by the first method that has it)
  std::vector<GemmBaselineCell> cells;  // one per method of the table
};

struct GemmBaselineTable {
  std::vector<std::string> methods;  // in the order of core/stats/gemm_methods.h, those the result has
  std::vector<int> rounds;           // per method, its measured rounds
  std::vector<GemmBaselineRow> rows;  // the release's column order; baselines neither measured nor recorded left out
  std::vector<std::string> notes;     // the runner's: what was not timed, and why
  std::vector<std::string> gaps;      // why CUDA-L2's number and KernelScope's differ, where they do (method_gap.h)
};

// The table of `baselines` against what `recorded` (the candidate as the release has it) claims.
GemmBaselineTable gemmBaselineTable(const protocol::GemmBaselines& baselines, const Candidate& recorded);

// Its text, one line each: a header, one line per baseline ("1.52 (1.84)": measured, recorded in
// parentheses, "!" after a pair that disagrees), then the method gaps, then the notes. Columns padded for a
// fixed-width font.
std::vector<std::string> gemmBaselineLines(const GemmBaselineTable& table);

}  // namespace ks::runs
