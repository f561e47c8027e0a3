#include "core/formats/kernelbench_run_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "core/formats/issue_list.h"
#include "core/formats/kernelbench_reader.h"
#include "core/formats/text_file.h"
#include "core/json/nesting.h"

namespace ks {
// A named namespace around the file's helpers: unity builds put several readers in one translation unit.
namespace kb_run {
namespace {

namespace fs = std::filesystem;

constexpr const char* kEvalResults = "eval_results.json";

// What a file name of a run says: level_<L>_problem_<P>_sample_<S>_<rest>.
struct SampleName {
  int level = 0, problem = 0, sample = 0;
  std::string rest;  // "kernel.py", "response.txt", "prompt.txt", "eval_result.json"
};

// Reads a non-negative decimal at the front of `text` and drops it; nullopt when there is none.
std::optional<int> takeNumber(std::string_view& text) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data() || value < 0) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

bool takePrefix(std::string_view& text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return false;
  text.remove_prefix(prefix.size());
  return true;
}

std::optional<SampleName> parseSampleName(std::string_view name) {
  SampleName out;
  std::optional<int> level, problem, sample;
  if (!takePrefix(name, "level_") || !(level = takeNumber(name)) || !takePrefix(name, "_problem_") ||
      !(problem = takeNumber(name)) || !takePrefix(name, "_sample_") || !(sample = takeNumber(name)) ||
      !takePrefix(name, "_") || name.empty())
    return std::nullopt;
  out.level = *level;
  out.problem = *problem;
  out.sample = *sample;
  out.rest = std::string(name);
  return out;
}

std::optional<int> parseKey(const std::string& key) {
  std::string_view text = key;
  std::optional<int> value = takeNumber(text);
  if (!value || !text.empty()) return std::nullopt;
  return value;
}

bool regularFile(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

fs::path absoluteFolder(const fs::path& path) {
  std::error_code ec;
  fs::path named = fs::absolute(path, ec).lexically_normal();
  if (!named.has_filename()) named = named.parent_path();
  return named;
}

int lineAt(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// The line where the JSON key `"key"` first occurs after `from`; 0 when it does not.
int lineOfKey(const std::string& text, const std::string& key, std::size_t from = 0) {
  const std::size_t at = text.find("\"" + key + "\"", from);
  return at == std::string::npos ? 0 : lineAt(text, at);
}

// The text of a whole JSON file, parsed, or nullopt with one issue naming the line of the problem.
std::optional<nlohmann::json> parseJsonFile(const fs::path& path, IssueList& issues, std::string& text) {
  const std::string file = path.string();
  std::optional<std::string> read = readSourceFile(path, issues);
  if (!read) return std::nullopt;
  text = std::move(*read);
  auto error = [&](int line, std::string message) {
    issues.add(LoadIssue{file, line, std::move(message), LoadIssue::Severity::Error});
  };
  if (const auto deep = json::tooDeepAt(text)) {
    error(lineAt(text, *deep - 1), "JSON " + json::nestingError(text) + ": not read");
    return std::nullopt;
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    error(lineAt(text, e.byte > 0 ? e.byte - 1 : 0), std::string("not JSON: ") + e.what() + "; not read");
  } catch (const nlohmann::json::exception& e) {
    error(0, std::string("not JSON: ") + e.what() + "; not read");
  }
  return std::nullopt;
}

// One recorded evaluation of a sample (KernelExecResult as the scripts write it).
struct EvalEntry {
  bool compiled = false;
  bool correct = false;
  std::optional<double> runtimeMs;  // none when the script recorded -1 (not timed)
  std::string hardware;             // runtime_stats.hardware, when recorded
  std::string error;                // the metadata's error text, when it has one
  std::string file;
  int line = 0;
};

// The metadata's words on why a sample failed: its error keys first, then any key naming an error/issue.
std::string metadataError(const nlohmann::json& metadata) {
  if (!metadata.is_object()) return {};
  for (const char* key : {"compilation_error", "runtime_error", "cuda_error", "other_error", "gpu_error",
                          "error_message", "correctness_issue"})
    if (auto it = metadata.find(key);
        it != metadata.end() && it->is_string() && !it->get<std::string>().empty())
      return std::string(key) + ": " + it->get<std::string>();
  for (const auto& [key, value] : metadata.items())
    if ((key.find("error") != std::string::npos || key.find("issue") != std::string::npos) &&
        value.is_string() && !value.get<std::string>().empty())
      return key + ": " + value.get<std::string>();
  return {};
}

// Reads one entry; an empty string when it is fine, else what is wrong with it.
std::string readEntry(const nlohmann::json& item, EvalEntry& out) {
  if (!item.is_object()) return "expected an object with compiled, correctness, runtime";
  for (const auto& [key, target] :
       {std::pair{"compiled", &out.compiled}, std::pair{"correctness", &out.correct}}) {
    const auto it = item.find(key);
    if (it == item.end()) return std::string("has no \"") + key + "\"";
    if (!it->is_boolean()) return std::string("\"") + key + "\" must be true or false";
    *target = it->get<bool>();
  }
  if (const auto it = item.find("runtime"); it != item.end() && !it->is_null()) {
    if (!it->is_number() || !std::isfinite(it->get<double>())) return "\"runtime\" must be a number";
    if (const double ms = it->get<double>(); ms > 0) out.runtimeMs = ms;
  }
  if (const auto it = item.find("runtime_stats"); it != item.end() && it->is_object())
    if (const auto hw = it->find("hardware"); hw != it->end() && hw->is_string())
      out.hardware = hw->get<std::string>();
  if (const auto it = item.find("metadata"); it != item.end()) {
    out.error = metadataError(*it);
    if (out.hardware.empty() && it->is_object())
      if (const auto hw = it->find("hardware"); hw != it->end() && hw->is_string())
        out.hardware = hw->get<std::string>();
  }
  return {};
}

struct SampleData {
  fs::path kernel;
  std::optional<EvalEntry> eval;
};

using ProblemKey = std::pair<int, int>;  // (level, problem)
using Samples = std::map<ProblemKey, std::map<int, SampleData>>;

// Records `entry` for (level, problem, sample), or reports a second result for it.
void addEntry(Samples& samples, int level, int problem, int sample, EvalEntry entry, IssueList& issues) {
  SampleData& data = samples[{level, problem}][sample];
  if (data.eval) {
    issues.add(LoadIssue{entry.file, entry.line,
                         "a second result for level " + std::to_string(level) + " problem " +
                             std::to_string(problem) + " sample " + std::to_string(sample) + " (also " +
                             data.eval->file + ":" + std::to_string(data.eval->line) + "); the first is kept",
                         LoadIssue::Severity::Error});
    return;
  }
  data.eval = std::move(entry);
}

// eval_results.json in any of the shapes the scripts write:
//   {"<P>": [{"sample_id": S, ...}, ...]}                    eval_from_generations.py (one level a run)
//   {"<P>": {"compiled": ..., ...}}                          one sample (sample 0) a problem
//   {"<L>": {"<P>": {"<S>": {"compiled": ..., ...}}}}        src/run_utils.py, keyed by level
// `level` is the run's level for the first two (-1: not known, and those entries are reported).
void readEvalResults(const fs::path& path, int level, Samples& samples, IssueList& issues) {
  const std::string file = path.string();
  auto issue = [&](int line, std::string message, LoadIssue::Severity severity = LoadIssue::Severity::Error) {
    issues.add(LoadIssue{file, line, std::move(message), severity});
  };
  std::string text;
  std::optional<nlohmann::json> json = parseJsonFile(path, issues, text);
  if (!json) return;
  if (!json->is_object()) {
    issue(1,
          "expected an object keyed by problem id ({\"1\": [{\"sample_id\": 0, \"compiled\": ...}]}); not "
          "read");
    return;
  }
  auto entryAt = [&](const nlohmann::json& item, int line, int l, int p, int s, const std::string& where) {
    EvalEntry entry;
    entry.file = file;
    entry.line = line;
    if (std::string problem = readEntry(item, entry); !problem.empty()) {
      issue(line, where + ": " + problem + "; skipped");
      return;
    }
    addEntry(samples, l, p, s, std::move(entry), issues);
  };
  bool reportedLevel = false;
  for (const auto& [key, value] : json->items()) {
    const int line = lineOfKey(text, key);
    const std::optional<int> number = parseKey(key);
    if (!number) {
      issue(line, "key \"" + key + "\": expected a problem id or a level (a number); skipped");
      continue;
    }
    const bool byLevel = value.is_object() && !value.contains("compiled") && !value.contains("correctness");
    if (!byLevel && level < 0) {
      if (!reportedLevel)
        issue(0,
              "the file keys results by problem id alone and the run's level is not known (no "
              "level_<L>_problem_..._kernel.py of one level, no \"level:\" in generation_config.yaml); those "
              "results are not read",
              LoadIssue::Severity::Warning);
      reportedLevel = true;
      continue;
    }
    if (value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string where = "\"" + key + "\"[" + std::to_string(i) + "]";
        const nlohmann::json& item = value[i];
        const auto sample = item.is_object() ? item.find("sample_id") : item.end();
        if (item.is_object() &&
            (sample == item.end() || !sample->is_number_integer() || sample->get<int>() < 0)) {
          issue(line, where + ": expected a \"sample_id\" (a whole number); skipped");
          continue;
        }
        entryAt(item, line, level, *number, item.is_object() ? sample->get<int>() : 0, where);
      }
    } else if (!byLevel) {
      int sample = 0;
      if (const auto it = value.find("sample_id");
          it != value.end() && it->is_number_integer() && it->get<int>() >= 0)
        sample = it->get<int>();
      entryAt(value, line, level, *number, sample, "\"" + key + "\"");
    } else {
      const std::size_t levelAt = text.find("\"" + key + "\"");
      for (const auto& [problemKey, problems] : value.items()) {
        const int problemLine = lineOfKey(text, problemKey, levelAt == std::string::npos ? 0 : levelAt);
        const std::string where = "\"" + key + "\".\"" + problemKey + "\"";
        const std::optional<int> problem = parseKey(problemKey);
        if (!problem || !problems.is_object()) {
          issue(problemLine, where + ": expected a problem id keying an object of samples; skipped");
          continue;
        }
        for (const auto& [sampleKey, item] : problems.items()) {
          const std::optional<int> sample = parseKey(sampleKey);
          if (!sample) {
            issue(problemLine, where + ".\"" + sampleKey + "\": expected a sample id (a number); skipped");
            continue;
          }
          entryAt(item, problemLine, *number, *problem, *sample, where + ".\"" + sampleKey + "\"");
        }
      }
    }
  }
}

// level_<L>_problem_<P>_sample_<S>_eval_result.json (src/run_utils.py): one sample's result.
void readSampleResult(const fs::path& path, const SampleName& name, Samples& samples, IssueList& issues) {
  std::string text;
  std::optional<nlohmann::json> json = parseJsonFile(path, issues, text);
  if (!json) return;
  EvalEntry entry;
  entry.file = path.string();
  entry.line = 1;
  if (std::string problem = readEntry(*json, entry); !problem.empty()) {
    issues.add(LoadIssue{entry.file, 1, problem + "; not read", LoadIssue::Severity::Error});
    return;
  }
  addEntry(samples, name.level, name.problem, name.sample, std::move(entry), issues);
}

// `level: 2` in the generation_config.yaml generate_samples.py saves; nullopt when absent.
std::optional<int> configLevel(const fs::path& run) {
  const fs::path path = run / "generation_config.yaml";
  if (!regularFile(path)) return std::nullopt;
  std::vector<LoadIssue> ignored;
  IssueList quiet(path.string(), ignored);
  std::optional<std::string> text = readSourceFile(path, quiet);
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with("level:")) continue;
    std::string_view value = std::string_view(line).substr(6);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\'' || value.front() == '"'))
      value.remove_prefix(1);
    return takeNumber(value);
  }
  return std::nullopt;
}

// The first ancestor of `run` (itself included) for which `has` holds.
template <typename Has>
std::optional<fs::path> ancestorWith(const fs::path& run, Has has) {
  for (fs::path at = run;; at = at.parent_path()) {
    if (has(at)) return at;
    if (at == at.parent_path() || at.empty()) return std::nullopt;
  }
}

// The reference's recorded times: (level, problem) -> mean milliseconds.
struct BaselineTimes {
  std::map<ProblemKey, double> meanMs;
  std::string baseline = "default";  // the Measurement baseline the file's times are
  std::string hardware;              // the timing folder's name ("L40S"), when the path says
  std::string source;                // the file, for the run's description
};

// "baseline_time_torch" -> "default" (PyTorch eager, the reference as written); torch.compile files map to
// the names KernelScope uses; any other file keeps its stem.
std::string baselineNameOf(const std::string& stem) {
  if (stem == "baseline_time_torch") return "default";
  if (stem == "baseline_time_torch_compile_inductor_default") return "torch_compile_default";
  if (stem == "baseline_time_torch_compile_inductor_reduce-overhead") return "torch_compile_reduce_overhead";
  constexpr std::string_view kPrefix = "baseline_time_";
  return stem.starts_with(kPrefix) ? stem.substr(kPrefix.size()) : stem;
}

std::optional<BaselineTimes> readBaselineTimes(const fs::path& path, IssueList& issues) {
  std::string text;
  std::optional<nlohmann::json> json = parseJsonFile(path, issues, text);
  if (!json) return std::nullopt;
  const std::string file = path.string();
  if (!json->is_object()) {
    issues.add(LoadIssue{file, 1,
                         "expected an object {\"level1\": {\"1_Name.py\": {\"mean\": ms}}}; not used",
                         LoadIssue::Severity::Error});
    return std::nullopt;
  }
  BaselineTimes out;
  out.baseline = baselineNameOf(path.stem().string());
  out.hardware = path.parent_path().filename().string();
  out.source = file;
  for (const auto& [levelKey, problems] : json->items()) {
    std::string_view rest = levelKey;
    const std::optional<int> level = takePrefix(rest, "level") ? takeNumber(rest) : std::nullopt;
    if (!level || !rest.empty() || !problems.is_object()) continue;  // other keys are not times
    for (const auto& [name, stats] : problems.items()) {
      std::string_view digits = name;
      const std::optional<int> problem = takeNumber(digits);
      if (!problem || !digits.starts_with("_")) continue;
      if (stats.is_null()) continue;  // a reference the script could not time
      const auto mean = stats.is_object() ? stats.find("mean") : stats.end();
      if (mean == stats.end() || !mean->is_number() || !(mean->get<double>() > 0) ||
          !std::isfinite(mean->get<double>())) {
        issues.add(LoadIssue{file, lineOfKey(text, name),
                             levelKey + "." + name + ": expected {\"mean\": a positive number}; skipped",
                             LoadIssue::Severity::Error});
        continue;
      }
      out.meanMs[{*level, *problem}] = mean->get<double>();
    }
  }
  return out;
}

// <ancestor>/results/timing/<hardware>/baseline_time_torch.json: the one file, or none (with a warning when
// several hardware folders have one: which one the run was measured against is not recorded).
std::optional<fs::path> findBaselineTimes(const fs::path& run, IssueList& issues) {
  const std::optional<fs::path> root = ancestorWith(run, [](const fs::path& at) {
    std::error_code ec;
    return fs::is_directory(at / "results" / "timing", ec);
  });
  if (!root) return std::nullopt;
  std::vector<fs::path> found;
  std::error_code ec;
  for (fs::directory_iterator it(*root / "results" / "timing", ec), end; !ec && it != end; it.increment(ec))
    if (regularFile(it->path() / "baseline_time_torch.json"))
      found.push_back(it->path() / "baseline_time_torch.json");
  std::sort(found.begin(), found.end());
  if (found.size() == 1) return found[0];
  if (found.size() > 1) {
    std::string names;
    for (const fs::path& f : found)
      names += (names.empty() ? "" : ", ") + f.parent_path().filename().string();
    issues.warning(0,
                   "several hardware folders in " + (*root / "results" / "timing").string() + " (" + names +
                       ") have a baseline_time_torch.json and the run does not say which it was timed on; no "
                       "speedups are recorded (give one as KernelBenchRunOptions::baselineTimes)");
  }
  return std::nullopt;
}

}  // namespace
}  // namespace kb_run

KernelBenchRunInput kernelBenchRunInputKind(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_regular_file(path, ec))
    return path.filename() == kb_run::kEvalResults ? KernelBenchRunInput::EvalResultsFile
                                                   : KernelBenchRunInput::None;
  if (!fs::is_directory(path, ec)) return KernelBenchRunInput::None;
  if (kb_run::regularFile(path / kb_run::kEvalResults)) return KernelBenchRunInput::RunFolder;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
    if (const auto name = kb_run::parseSampleName(it->path().filename().string());
        name && name->rest == "kernel.py" && it->is_regular_file(ec))
      return KernelBenchRunInput::RunFolder;
  return KernelBenchRunInput::None;
}

RunFile readKernelBenchRun(const std::filesystem::path& path, const LoadOptions& options,
                           const KernelBenchRunOptions& runOptions) {
  namespace fs = std::filesystem;
  using namespace kb_run;
  RunFile run;
  run.path = path.string();
  run.format = "kernelbench-run";
  IssueList issues(run.path, run.issues);
  const KernelBenchRunInput kind = kernelBenchRunInputKind(path);
  const fs::path folder = kind == KernelBenchRunInput::EvalResultsFile ? absoluteFolder(path).parent_path()
                                                                       : absoluteFolder(path);
  run.title = folder.filename().string();
  if (kind == KernelBenchRunInput::None) {
    issues.error(0,
                 "not a KernelBench run: expected a folder holding eval_results.json or "
                 "level_<L>_problem_<P>_sample_<S>_kernel.py files");
    issues.finish();
    return run;
  }

  // The run's files: kernels and per-sample results by name; others are ignored.
  Samples samples;
  std::vector<std::pair<fs::path, SampleName>> sampleResults;
  std::vector<int> kernelLevels;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::optional<SampleName> name = parseSampleName(it->path().filename().string());
    if (!name || !it->is_regular_file(ec)) continue;
    if (name->rest == "kernel.py") {
      samples[{name->level, name->problem}][name->sample].kernel = it->path();
      kernelLevels.push_back(name->level);
    } else if (name->rest == "eval_result.json") {
      sampleResults.emplace_back(it->path(), *name);
    }
  }
  if (ec) issues.error(0, "cannot list folder: " + ec.message());
  std::sort(sampleResults.begin(), sampleResults.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::sort(kernelLevels.begin(), kernelLevels.end());
  kernelLevels.erase(std::unique(kernelLevels.begin(), kernelLevels.end()), kernelLevels.end());

  int level = -1;  // the run's level, for results keyed by problem alone
  if (kernelLevels.size() == 1)
    level = kernelLevels.front();
  else if (kernelLevels.empty())
    level = configLevel(folder).value_or(-1);
  if (regularFile(folder / kEvalResults)) readEvalResults(folder / kEvalResults, level, samples, issues);
  for (const auto& [file, name] : sampleResults) readSampleResult(file, name, samples, issues);

  // The reference programs.
  std::map<ProblemKey, const Task*> references;
  RunFile tasks;
  fs::path tasksFolder = runOptions.tasksFolder;
  if (tasksFolder.empty())
    if (std::optional<fs::path> root = ancestorWith(folder, [](const fs::path& at) {
          std::error_code e;
          return fs::is_directory(at / "KernelBench", e) && !kernelBenchLevels(at / "KernelBench").empty();
        }))
      tasksFolder = *root / "KernelBench";
  if (!tasksFolder.empty()) {
    tasks = readKernelBenchFolder(tasksFolder);
    for (LoadIssue& issue : tasks.issues) issues.add(std::move(issue));
    for (const Task& task : tasks.tasks) references[{task.level, task.number}] = &task;
  }

  // The reference's recorded times.
  std::optional<BaselineTimes> times;
  if (!runOptions.baselineTimes.empty()) {
    times = readBaselineTimes(runOptions.baselineTimes, issues);
  } else if (std::optional<fs::path> found = findBaselineTimes(folder, issues)) {
    times = readBaselineTimes(*found, issues);
  }
  if (times)
    run.description = "Recorded speedups: the mean time of the reference in " + times->source +
                      " (KernelBench's generate_baseline_time.py, baseline \"" + times->baseline +
                      "\") over the sample's recorded runtime.";
  else
    run.description =
        "No reference times found (results/timing/<hardware>/baseline_time_torch.json): runtimes "
        "are recorded without speedups.";

  std::size_t missingReferences = 0;
  std::size_t done = 0;
  for (auto& entry : samples) {
    // Named copies: the lambdas below capture them, which clang before 16 refuses for structured bindings.
    const auto& key = entry.first;
    auto& bySample = entry.second;
    if (options.cancel && options.cancel->load()) {
      issues.warning(0,
                     "loading was cancelled; " + std::to_string(samples.size() - done) + " task(s) not read");
      break;
    }
    const auto [taskLevel, problem] = key;
    Task& task = run.tasks.emplace_back();
    task.level = taskLevel;
    task.number = problem;
    if (const auto ref = references.find(key); ref != references.end()) {
      task.name = ref->second->name;
      task.referenceCode = ref->second->referenceCode;
      task.sourceLine = 1;
    } else {
      task.name = "L" + std::to_string(taskLevel) + "/" + std::to_string(problem);
      task.note = "The reference program was not found (KernelBench/level" + std::to_string(taskLevel) + "/" +
                  std::to_string(problem) + "_<Name>.py).";
      ++missingReferences;
    }
    const std::optional<double> baselineMs = times ? [&]() -> std::optional<double> {
      const auto it = times->meanMs.find(key);
      return it == times->meanMs.end() ? std::nullopt : std::optional<double>(it->second);
    }()
        : std::nullopt;
    for (auto& [sample, data] : bySample) {
      Candidate& candidate = task.candidates.emplace_back();
      candidate.id = "sample_" + std::to_string(sample);
      if (!data.kernel.empty()) {
        candidate.code = readSourceFile(data.kernel, issues);  // nullopt (with an issue) when unreadable
        candidate.sourceLine = 1;
      } else if (data.eval) {
        issues.add(LoadIssue{data.eval->file, data.eval->line,
                             "a result for level " + std::to_string(taskLevel) + " problem " +
                                 std::to_string(problem) + " sample " + std::to_string(sample) + " but no " +
                                 "level_" + std::to_string(taskLevel) + "_problem_" +
                                 std::to_string(problem) + "_sample_" + std::to_string(sample) +
                                 "_kernel.py; the candidate has no program",
                             LoadIssue::Severity::Warning});
      }
      if (!data.eval) continue;
      const EvalEntry& eval = *data.eval;
      Measurement& m = candidate.measurements.emplace_back();
      m.origin = "recorded";
      m.baseline = times ? times->baseline : std::string("default");
      m.device = !eval.hardware.empty()              ? eval.hardware
                 : times && !times->hardware.empty() ? times->hardware + " (as recorded by KernelBench)"
                                                     : std::string();
      if (!eval.compiled) {
        m.outcome = "error";
        m.error = eval.error.empty() ? "did not compile" : eval.error;
      } else if (!eval.correct) {
        m.outcome = "incorrect";
        m.error = eval.error;
      } else {
        m.outcome = "correct";
        m.candidateMs = eval.runtimeMs;
        if (eval.runtimeMs && baselineMs) {
          m.baselineMs = baselineMs;
          m.speedup = *baselineMs / *eval.runtimeMs;
        }
      }
    }
    ++done;
    if (options.progress) options.progress(static_cast<double>(done) / static_cast<double>(samples.size()));
  }
  if (missingReferences > 0)
    issues.warning(0,
                   std::to_string(missingReferences) + " task(s) without a reference program: " +
                       (tasksFolder.empty()
                            ? "no KernelBench/ task folder (level1/, ...) beside the run or an ancestor of it"
                            : "not in " + tasksFolder.string()) +
                       "; put KernelBench's KernelBench/ folder beside runs/, or give it as "
                       "KernelBenchRunOptions::tasksFolder");
  issues.finish();
  return run;
}

}  // namespace ks
