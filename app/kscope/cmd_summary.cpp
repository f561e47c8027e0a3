// kscope summary FILE... [--json]: speedup statistics (all recorded, per level, shown as wins, per baseline)
// and static flag counts per family, for each file. Keys and columns: docs/cli.md.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "app/kscope/command.h"
#include "app/kscope/input_loading.h"
#include "app/kscope/text_table.h"
#include "core/flags/flag_counts.h"
#include "core/flags/flag_families.h"
#include "core/flags/static_rules.h"
#include "core/stats/speedup_sets.h"
#include "core/stats/speedup_stats.h"

namespace ks::cli {
namespace {

using Json = nlohmann::ordered_json;

// The static flags of the file, and the statistics over the speedups "shown as wins" that go with them.
struct StaticSummary {
  FlagCounts flags;  // counted by the one definition of "flagged" the GUI uses too (core/flags/flag_counts.h)
  // The default baseline's recorded speedups the Charts tab charts (finite and positive) less those of a
  // caught hack: a candidate with a hack-severity static flag, the rule of views/logic/speedup_trust.h.
  // Re-runs are not read here, so none is fallback-timed.
  SpeedupStats wins;
  std::size_t charted = 0;      // recorded speedups the Charts tab charts ("candidates with a speedup")
  std::size_t caughtHacks = 0;  // ... of which not shown as wins
};

StaticSummary checkStaticFlags(const RunFile& run, const RunSummary& summary) {
  StaticSummary out;
  std::vector<double> wins;
  for (const Task& task : run.tasks)
    for (const Candidate& c : task.candidates) {
      std::vector<Flag> flags;
      if (c.code) {
        flags = checkStatic(task.referenceCode, *c.code);
        out.flags.addCandidate(flags);
      }
      const std::optional<double> speedup = c.speedup("default");
      if (!speedup || !std::isfinite(*speedup) || *speedup <= 0) continue;
      ++out.charted;
      if (std::any_of(flags.begin(), flags.end(),
                      [](const Flag& f) { return f.severity == FlagSeverity::Hack; }))
        ++out.caughtHacks;
      else
        wins.push_back(*speedup);
    }
  out.wins = computeStats(wins);
  out.wins.count = summary.overall.count;
  out.wins.withCode = summary.overall.withCode;
  return out;
}

// What the two sets are, in the Charts tab's words (core/stats/speedup_sets.h): "all recorded: every recorded
// speedup (the levels too); shown as wins: as the Charts tab, 227 candidates with a speedup · of the 196
// shown as wins · 31 caught hacks not shown as wins (…)".
std::string setsNote(const StaticSummary& s) {
  const std::string notWins = notWinsText(0, s.caughtHacks);
  return std::string(kAllRecordedSet) + ": every recorded speedup (the levels too); " + kShownAsWinsSet +
         ": as the Charts tab, " + std::to_string(s.charted) + " candidates with a speedup · " +
         ofTheWins(s.wins.withSpeedup) + (notWins.empty() ? "" : " · " + notWins) +
         " (re-runs are not read here: none counts as fallback-timed)";
}

// A family's severity: the worst it was raised with in this file, else the catalog's.
const char* familySeverity(const FlagCounts& counts, const std::string& id) {
  const auto count = counts.byFamily.find(id);
  if (count != counts.byFamily.end() && count->second.flags > 0) return severityName(count->second.worst);
  const FlagFamily* family = findFlagFamily(id);
  return family ? severityName(family->severity) : "unknown";
}

// The catalog's families in catalog order, then any family id a rule used that the catalog lacks.
std::vector<std::string> familyOrder(const FlagCounts& counts) {
  std::vector<std::string> ids;
  for (const FlagFamily& family : flagFamilies()) ids.emplace_back(family.id);
  for (const auto& [id, count] : counts.byFamily)
    if (!findFlagFamily(id)) ids.push_back(id);
  return ids;
}

Json statsJson(const SpeedupStats& s) {
  Json j = {{"count", s.count}, {"with_code", s.withCode}, {"with_speedup", s.withSpeedup}};
  const std::pair<const char*, double> numbers[] = {
      {"mean", s.mean}, {"median", s.median}, {"p25", s.p25},         {"p75", s.p75},
      {"min", s.min},   {"max", s.max},       {"geomean", s.geomean}, {"share_above", s.shareAbove}};
  for (const auto& [key, value] : numbers) j[key] = s.withSpeedup > 0 ? Json(value) : Json(nullptr);
  return j;
}

// The readers' notes on tasks (good-kernels: "No recorded measurements: ..."), each with how many tasks
// carry it, in first-seen order.
std::vector<std::pair<std::string, std::size_t>> taskNotes(const RunFile& run) {
  std::vector<std::pair<std::string, std::size_t>> notes;
  for (const Task& task : run.tasks) {
    if (task.note.empty()) continue;
    auto it = std::find_if(notes.begin(), notes.end(), [&](const auto& n) { return n.first == task.note; });
    if (it == notes.end())
      notes.emplace_back(task.note, 1);
    else
      ++it->second;
  }
  return notes;
}

Json issuesJson(const RunFile& run) {
  Json list = Json::array();
  for (const LoadIssue& i : run.issues)
    list.push_back({{"file", i.file},
                    {"line", i.line},
                    {"severity", issueSeverityName(i.severity)},
                    {"message", i.message}});
  return list;
}

// The file's entry; `summary` and `checked` are null when it could not be read.
Json fileJson(const std::string& path, const RunFile& run, const RunSummary* summary,
              const StaticSummary* checked) {
  Json j = {{"file", path},
            {"loaded", summary != nullptr},
            {"format", run.format},
            {"title", run.title},
            {"tasks", run.tasks.size()},
            {"candidates", run.candidateCount()},
            {"errors", run.errorCount()},
            {"warnings", run.issues.size() - run.errorCount()},
            {"issues", issuesJson(run)}};
  Json notes = Json::array();
  for (const auto& [note, tasks] : taskNotes(run)) notes.push_back({{"note", note}, {"tasks", tasks}});
  j["task_notes"] = std::move(notes);
  if (!summary) return j;
  const FlagCounts* flags = &checked->flags;
  j["overall"] = statsJson(summary->overall);
  j["wins"] = statsJson(checked->wins);
  j["not_wins"] = {{"caught_hacks", checked->caughtHacks}, {"fallback_timed", 0}};
  j["sets"] = {{"overall", kAllRecordedSet}, {"wins", kShownAsWinsSet}, {"note", setsNote(*checked)}};
  Json byLevel = Json::object();
  for (const auto& [level, stats] : summary->byLevel) byLevel[std::to_string(level)] = statsJson(stats);
  j["by_level"] = std::move(byLevel);
  Json byBaseline = Json::object();
  for (const auto& [baseline, stats] : summary->byBaseline) byBaseline[baseline] = statsJson(stats);
  j["by_baseline"] = std::move(byBaseline);
  Json families = Json::array();
  for (const std::string& id : familyOrder(*flags)) {
    const FlagFamily* family = findFlagFamily(id);
    const auto count = flags->byFamily.find(id);
    families.push_back({{"id", id},
                        {"title", family ? std::string(family->title) : std::string()},
                        {"severity", familySeverity(*flags, id)},
                        {"candidates", count == flags->byFamily.end() ? 0 : count->second.candidates},
                        {"flags", count == flags->byFamily.end() ? 0 : count->second.flags}});
  }
  j["static_flags"] = {
      {"checked", flags->checked}, {"flagged", flags->flagged}, {"families", std::move(families)}};
  return j;
}

std::vector<std::string> statsCells(const std::string& label, const SpeedupStats& s) {
  auto number = [&](double v) { return s.withSpeedup > 0 ? formatNumber(v) : std::string("-"); };
  return {label,
          std::to_string(s.count),
          std::to_string(s.withCode),
          std::to_string(s.withSpeedup),
          number(s.mean),
          number(s.median),
          number(s.p25),
          number(s.p75),
          number(s.min),
          number(s.max),
          number(s.geomean),
          s.withSpeedup > 0 ? formatNumber(100 * s.shareAbove, 1) + "%" : std::string("-")};
}

TextTable statsTable(const std::string& title) {
  return TextTable({title, "count", "code", "speedup", "mean", "median", "p25", "p75", "min", "max",
                    "geomean", ">" + formatNumber(kSpeedupThreshold)});
}

void printText(std::ostream& out, const RunFile& run, const RunSummary& summary,
               const StaticSummary& checked) {
  const FlagCounts& flags = checked.flags;
  out << "== " << run.path;
  if (run.title != std::filesystem::path(run.path).filename().string()) out << "  \"" << run.title << "\"";
  out << "  (" << run.format << ": " << run.tasks.size() << " tasks, " << run.candidateCount()
      << " candidates, " << run.errorCount() << " errors, " << run.issues.size() - run.errorCount()
      << " warnings)\n\n";
  for (const auto& [note, tasks] : taskNotes(run))
    out << (tasks == run.tasks.size()
                ? "every task"
                : std::to_string(tasks) + " of " + std::to_string(run.tasks.size()) + " tasks")
        << ": " << note << "\n\n";
  // A run that records other baselines but none named "default" (CUDA-L2: torch.matmul, cuBLAS, ... per
  // timing mode) would only show a table of dashes here; its numbers are all in the baseline table.
  if (summary.byBaseline.empty() || summary.byBaseline.count("default")) {
    // Each row says which set it is over, in the Charts tab's words (core/stats/speedup_sets.h).
    TextTable levels = statsTable("vs default");
    levels.addRow(statsCells(kAllRecordedSet, summary.overall));
    for (const auto& [level, stats] : summary.byLevel)
      levels.addRow(statsCells("level " + std::to_string(level), stats));
    levels.addRow(statsCells(kShownAsWinsSet, checked.wins));
    levels.print(out);
    if (checked.charted > 0) out << setsNote(checked) << "\n";
    out << "\n";
  }
  TextTable baselines = statsTable("by baseline");
  for (const auto& [baseline, stats] : summary.byBaseline) baselines.addRow(statsCells(baseline, stats));
  baselines.print(out);
  out << "\nstatic flags: " << flags.checked << " candidates with a program checked, " << flags.flagged
      << " flagged (a hack or suspicious flag)\n";
  TextTable families({"family", "severity", "candidates", "flags"});
  for (const std::string& id : familyOrder(flags)) {
    const auto count = flags.byFamily.find(id);
    if (count == flags.byFamily.end()) continue;
    families.addRow({id, familySeverity(flags, id), std::to_string(count->second.candidates),
                     std::to_string(count->second.flags)});
  }
  if (!flags.byFamily.empty()) families.print(out);
  out << "\n";
}

struct SummaryOptions {
  std::vector<std::string> files;
  bool json = false;
};

void runSummary(const SummaryOptions& options) {
  Json files = Json::array();
  for (const std::string& path : options.files) {
    const LoadedInput input = loadInput(path);
    if (!input.usable) {
      if (options.json) files.push_back(fileJson(path, input.run, nullptr, nullptr));
      continue;
    }
    const RunSummary summary = summarize(input.run);
    const StaticSummary checked = checkStaticFlags(input.run, summary);
    if (options.json)
      files.push_back(fileJson(path, input.run, &summary, &checked));
    else
      printText(std::cout, input.run, summary, checked);
  }
  if (options.json)
    std::cout << Json{{"speedup_threshold", kSpeedupThreshold}, {"files", std::move(files)}}.dump(
                     2, ' ', false, Json::error_handler_t::replace)
              << "\n";
}

}  // namespace

void addSummaryCommand(CLI::App& app) {
  auto options = std::make_shared<SummaryOptions>();
  CLI::App* command = app.add_subcommand("summary",
                                         "Speedup statistics (all recorded, per level, shown as wins, per "
                                         "baseline) and static flag counts per file");
  command
      ->add_option("files", options->files, "CUDA-L1 JSONL, kscope run file, KernelBench folder or .cu file")
      ->required();
  command->add_flag("--json", options->json, "Print one JSON document (keys: docs/cli.md)");
  command->callback([options] { runSummary(*options); });
}

KS_REGISTER_COMMAND(addSummaryCommand);

}  // namespace ks::cli
