#include "views/report/report_content.h"

#include <QString>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>

#include "core/flags/flag_counts.h"
#include "core/model/run_file.h"
#include "core/runs/cuda_l1_gap.h"
#include "core/runs/method_gap.h"
#include "core/stats/speedup_sets.h"
#include "views/report/code_highlight.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_format.h"
#include "views/logic/measured_history.h"
#include "views/logic/runtime_evidence.h"
#include "views/logic/speedup_format.h"

namespace ks {
namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::string anchorFor(const std::string& taskKey, const std::string& candidateId, std::set<std::string>& used) {
  std::string id = "t-";
  for (char c : taskKey + (candidateId.empty() ? std::string() : "-" + candidateId))
    id += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  std::string unique = id;
  for (int n = 2; !used.insert(unique).second; ++n) unique = id + "-" + std::to_string(n);
  return unique;
}

std::string number(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// "2026-11-25 10:02 UTC" from an ISO-8601 UTC stamp; as given when it is not one.
std::string utcText(const std::string& iso) {
  if (iso.size() < 16 || iso[10] != 'T') return iso;
  return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
}

// How a re-run timed its number: "cuda-events, 100 trials after 10 warm-up, L2 flushed (50 MB) each call".
std::string methodText(const runs::MeasuredRun& run) {
  if (!run.result || !run.result->timing) return run.result ? run.result->timingNote : std::string();
  const protocol::Timing& t = *run.result->timing;
  std::string text = t.clock + ", " + std::to_string(t.trials) + " trials after " + std::to_string(t.warmup) +
                     " warm-up, reference and candidate interleaved";
  if (t.cacheFlushBytes > 0)
    text += ", L2 flushed (" + number(static_cast<double>(t.cacheFlushBytes) / (1 << 20), 0) +
            " MiB) before each call";
  if (t.speedupCi95) text += "; interval: 95 % bootstrap over the trials";
  return text;
}

// The candidate's diff against `base`, both coloured, old and new lines interleaved like a unified diff.
std::vector<ReportCodeLine> diffLines(std::string_view base, std::string_view code, CodeLanguage language,
                                      const LineDiff& diff, const std::set<int>& evidence) {
  const std::vector<std::string> oldHtml = highlightLines(base, language);
  const std::vector<std::string> newHtml = highlightLines(code, language);
  const auto& left = diff.left();
  const auto& right = diff.right();
  const std::size_t nLeft = std::min(left.size(), oldHtml.size());
  const std::size_t nRight = std::min(right.size(), newHtml.size());
  std::vector<ReportCodeLine> lines;
  std::size_t i = 0, j = 0;
  while (i < nLeft || j < nRight) {
    if (i < nLeft && j < nRight && left[i] == LineDiff::Status::Same && right[j] == LineDiff::Status::Same) {
      const int n = static_cast<int>(j) + 1;
      lines.push_back({ReportCodeLine::Side::Both, LineDiff::Status::Same, n, newHtml[j], evidence.count(n) > 0});
      ++i, ++j;
      continue;
    }
    bool moved = false;
    while (i < nLeft && left[i] != LineDiff::Status::Same) {
      lines.push_back({ReportCodeLine::Side::Old, left[i], static_cast<int>(i) + 1, oldHtml[i], false});
      ++i, moved = true;
    }
    while (j < nRight && right[j] != LineDiff::Status::Same) {
      const int n = static_cast<int>(j) + 1;
      lines.push_back({ReportCodeLine::Side::New, right[j], n, newHtml[j], evidence.count(n) > 0});
      ++j, moved = true;
    }
    if (!moved) {  // one side ran out of lines while the other has Same lines left (texts without a diff)
      if (i < nLeft) ++i;
      if (j < nRight) {
        const int n = static_cast<int>(j) + 1;
        lines.push_back({ReportCodeLine::Side::Both, LineDiff::Status::Same, n, newHtml[j], evidence.count(n) > 0});
        ++j;
      }
    }
  }
  return lines;
}

std::string speedupText(std::optional<double> speedup) {
  return speedup ? formatSpeedup(*speedup).toStdString() : std::string("—");
}

}  // namespace

ReportSection buildSection(const LoadedRun& run, const MeasuredHistory* history, int row,
                           const SpeedupSeries& series) {
  ReportSection s;
  s.row = row;
  const Task& task = run.task(row);
  const Candidate* c = run.candidate(row);
  s.taskKey = task.key();
  s.taskName = task.name;
  s.level = task.level;
  s.referenceDescription = task.referenceDescription;
  s.referenceHtml = highlightLines(task.referenceCode, task.referenceLanguage);
  s.trust = speedupTrust(run, history, row);
  s.verdict = trustHeadline(s.trust);
  if (!c) return s;
  s.candidateId = c->id;
  s.language = c->language;
  s.analysis = c->analysis.valueOrEmpty();
  s.recordedSpeedup = recordedSpeedup(*c, series);

  const std::string code = c->code.value_or(std::string());
  const std::vector<std::string_view> codeLines = splitLines(code);
  auto addFlag = [&](const Flag& flag) {
    ReportFlag f{flag, {}};
    for (int line : flag.lines)
      if (line >= 1 && line <= static_cast<int>(codeLines.size()))
        f.lines.emplace_back(line, std::string(codeLines[static_cast<std::size_t>(line - 1)]));
    s.flags.push_back(std::move(f));
  };
  std::vector<Flag> all = run.flags(row);
  for (const Flag& f : all) addFlag(f);
  for (const Flag& f : runtimeEvidence(history, row).flags) {
    addFlag(f);
    all.push_back(f);
  }
  s.flagged = isFlagged(all);

  if (c->code) {
    std::string base = task.referenceCode;
    s.comparedWith = "the reference";
    for (const std::string& parentId : c->parents) {
      auto parent = std::find_if(task.candidates.begin(), task.candidates.end(),
                                 [&](const Candidate& p) { return p.id == parentId; });
      if (parent != task.candidates.end() && parent->code) {
        base = *parent->code;
        s.comparedWith = "parent " + parentId;
        break;
      }
    }
    std::set<int> evidence;
    for (const ReportFlag& f : s.flags)
      for (const auto& [line, text] : f.lines) evidence.insert(line);
    const LineDiff diff = LineDiff::compute(base, code);
    s.insertions = diff.insertions();
    s.deletions = diff.deletions();
    s.diff = diffLines(base, code, c->language, diff, evidence);
  }

  for (const Measurement& m : c->measurements) {
    ReportRecorded r;
    r.baseline = baselineLabel(m.baseline, m.mode);
    r.speedup = speedupText(m.speedup);
    if (m.baselineMs && m.candidateMs)
      r.times = "baseline " + number(*m.baselineMs, 3) + " ms, candidate " + number(*m.candidateMs, 3) + " ms";
    r.device = m.device;
    r.when = m.when;
    s.recorded.push_back(std::move(r));
  }
  if (history)
    for (const MeasuredHistory::Entry& e : history->entries(row)) {
      if (!e.recordedProgram) continue;
      ReportMeasured m;
      m.headlineHtml = runHeadlineHtml(e.run).toStdString();
      m.speedup = speedupWithSpread(e.run).toStdString();
      m.verdict = trustHeadline(runTrust(e.run));
      m.device = deviceText(e.run).toStdString();
      m.method = methodText(e.run);
      m.when = utcText(e.run.row.recordedAt);
      m.outcome = outcomeText(e.run).toStdString();
      if (m.verdict.empty() && e.run.result && e.run.result->baselines)
        for (const runs::MethodGap& gap : runs::methodGaps(*e.run.result->baselines)) m.methodGaps.push_back(gap.text);
      if (e.run.result && e.run.result->cudaL1) {  // CUDA-L1's method: its summary always, the rest when trusted
        const std::vector<std::string> lines = runs::cudaL1Lines(*e.run.result);
        m.cudaL1 = lines.front();
        if (m.verdict.empty()) m.methodGaps.insert(m.methodGaps.end(), lines.begin() + 1, lines.end());
      }
      s.measured.push_back(std::move(m));
    }
  return s;
}

ReportContent buildReport(const LoadedRun& run, const MeasuredHistory* history, const ReportOptions& options) {
  ReportContent r;
  const RunFile& file = run.run();
  r.title = file.title;
  r.path = file.path;
  r.format = file.format;
  r.wholeFile = options.tasks.empty();
  r.baseline = seriesLabel(options.series);
  r.tasks = file.tasks.size();
  r.candidates = file.candidateCount();
  r.rowsWithCode = run.rowsWithCode();
  r.rowsFlagged = run.rowsFlagged();
  r.summary = summarize(file, options.series.baseline, options.series.mode);
  r.distribution = SpeedupDistribution(run, options.series, history);
  r.notWins = notWinsText(static_cast<std::size_t>(r.distribution.fallbackTimed()),
                          static_cast<std::size_t>(r.distribution.caughtHacks()));  // the Charts' words

  std::set<int> chosenTasks;
  for (const std::string& key : options.tasks) {
    bool found = false;
    for (std::size_t t = 0; t < file.tasks.size(); ++t)
      if (file.tasks[t].key() == key) chosenTasks.insert(static_cast<int>(t)), found = true;
    if (!found) r.problems.push_back("no task " + key + " in " + file.path);
  }
  std::set<std::string> anchors;
  bool candidateFound = options.candidate.empty();
  for (int row = 0; row < run.rowCount(); ++row) {
    const LoadedRun::Row& at = run.row(row);
    if (!r.wholeFile && !chosenTasks.count(at.task)) continue;
    const Candidate* c = run.candidate(row);
    if (!options.candidate.empty() && (!c || c->id != options.candidate)) continue;
    candidateFound = true;
    ReportSection section = buildSection(run, history, row, options.series);
    section.anchor = anchorFor(section.taskKey, section.candidateId, anchors);
    r.sections.push_back(std::move(section));
  }
  if (!candidateFound) r.problems.push_back("no candidate " + options.candidate + " in the chosen tasks");
  return r;
}

}  // namespace ks
