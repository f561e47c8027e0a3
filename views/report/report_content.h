#pragma once
// What a case-study report holds, without widgets: the run's summary statistics and speedup
// distribution, and one section per chosen candidate — the task with its reference, the model's analysis,
// the code diff against the candidate's parent (else the reference) with changed lines marked, the recorded
// and re-measured numbers (GPU, method, date) and the flags with their evidence lines. `kscope report`, the
// GUI's File ▸ Export and presentation mode's slides are all written from it (report_html.h); trust comes
// from the one rule (speedup_trust.h), flagged from flag_counts.h, a fallback's number from fallback_note.h.
#include <optional>
#include <string>
#include <vector>

#include "core/flags/flag.h"
#include "core/model/candidate.h"
#include "core/stats/speedup_stats.h"
#include "views/logic/line_diff.h"
#include "views/logic/speedup_distribution.h"
#include "views/logic/speedup_series.h"
#include "views/logic/speedup_trust.h"

namespace ks {

class LoadedRun;
class MeasuredHistory;

struct ReportOptions {
  std::vector<std::string> tasks;  // task keys ("L1/12"); empty: the whole file
  std::string candidate;           // a candidate id; empty: every candidate of the chosen tasks
  SpeedupSeries series;            // the series charted and listed: the open run's (OpenRun::series)
};

struct ReportCodeLine {
  enum class Side { Both, Old, New };
  Side side = Side::Both;
  LineDiff::Status status = LineDiff::Status::Same;
  int number = 0;  // 1-based line of its side (the candidate's for Both and New)
  std::string html;  // syntax-coloured (code_highlight.h)
  bool evidence = false;  // a flag names this candidate line
};

struct ReportFlag {
  Flag flag;
  std::vector<std::pair<int, std::string>> lines;  // each evidence line with its text (candidate program)
};

struct ReportRecorded {  // a number the file records
  std::string baseline;    // baselineLabel: "default", "cuda_graph (offline)"
  std::string speedup;     // "3.21×"; "—" when none
  std::string times;       // "baseline 1.20 ms, candidate 0.37 ms"; empty when not recorded
  std::string device;      // "" when the file does not say
  std::string when;
};

struct ReportMeasured {  // a re-run of the recorded program from the results store
  std::string headlineHtml;  // runHeadlineHtml: verdict first, a struck-through number when untrusted
  std::string speedup;       // speedupWithSpread: "17.20× [16.93–17.48×]", "PyTorch fallback's …"
  std::string verdict;       // trustHeadline(runTrust): "caught hack", "fell back"; empty when trusted
  std::string device, method, when, outcome;
  // Why a seed's method and KernelScope's differ (core/runs/method_gap.h, cuda_l1_gap.h); empty when untrusted.
  std::vector<std::string> methodGaps;
  // Python runs CUDA-L1's own method also evaluated: what it gave (cuda_l1_gap.h); struck when untrusted.
  std::string cudaL1;
};

struct ReportSection {
  int row = 0;  // of the LoadedRun
  std::string anchor;  // HTML id, unique in the report
  std::string taskKey, taskName;
  int level = 0;
  std::string candidateId;  // empty: the task has no candidate
  std::string comparedWith;  // "parent r2", "the reference"
  CodeLanguage language = CodeLanguage::Python;
  std::string referenceDescription;  // markdown, when the reader gave one
  std::vector<std::string> referenceHtml;  // the reference program, one coloured line each
  std::vector<ReportCodeLine> diff;  // base and candidate interleaved; empty without a program
  int insertions = 0, deletions = 0;
  std::string analysis;  // markdown; empty when the file has none
  std::vector<ReportFlag> flags;  // static then runtime (the newest re-run of the recorded program)
  bool flagged = false;            // flag_counts.h's isFlagged over them
  SpeedupTrust trust;              // speedupTrust of the row
  std::string verdict;             // trustHeadline(trust); empty when trusted
  std::optional<double> recordedSpeedup;  // in ReportOptions::series
  std::vector<ReportRecorded> recorded;
  std::vector<ReportMeasured> measured;  // runs of the recorded program, newest first
};

struct ReportContent {
  std::string title, path, format;
  bool wholeFile = true;
  std::string baseline;  // seriesLabel of ReportOptions::series: "default", "torch.matmul (offline)"
  std::size_t tasks = 0, candidates = 0;
  int rowsWithCode = 0, rowsFlagged = 0;  // rowsFlagged: LoadedRun::rowsFlagged (flag_counts.h)
  RunSummary summary;  // speedup_stats.h, the numbers `kscope summary` prints, overall in the series
  SpeedupDistribution distribution;       // the charts' points, each with its trust verdict
  std::string notWins;                    // "2 fallback-timed, 1 caught hack not shown as wins"; empty
  std::vector<ReportSection> sections;
  std::vector<std::string> problems;      // chosen tasks or candidates the run does not have
};

// `run` should carry its flags (LoadedRun::withFlags); `history` may be null.
ReportContent buildReport(const LoadedRun& run, const MeasuredHistory* history, const ReportOptions& options);

// One section (presentation mode builds its slides one row at a time).
ReportSection buildSection(const LoadedRun& run, const MeasuredHistory* history, int row,
                           const SpeedupSeries& series = {});

}  // namespace ks
