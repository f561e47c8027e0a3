#include "core/formats/good_kernels_reader.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "core/formats/csv_row.h"
#include "core/formats/issue_list.h"
#include "core/formats/text_file.h"
#include "core/json/nesting.h"

namespace ks {
namespace {

namespace fs = std::filesystem;

constexpr const char* kNoResults =
    "No recorded measurements: there is no results.csv or results.json beside ref.py and src.py "
    "(docs/formats.md, \"good-kernels\").";

bool isFile(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

bool isTaskFolder(const fs::path& folder) { return isFile(folder / "ref.py") && isFile(folder / "src.py"); }

fs::path normalFolder(const fs::path& path) {
  std::error_code ec;
  fs::path named = fs::absolute(path, ec).lexically_normal();
  if (!named.has_filename()) named = named.parent_path();
  return named;
}

// A measurement's fields by results column / JSON key.
const std::set<std::string> kFields = {"baseline", "speedup", "baseline_ms", "candidate_ms",
                                       "device",   "mode",    "when"};

// Checks the numbers of a measurement and fills a missing speedup from the two times. Empty: fine.
std::string finishMeasurement(Measurement& m) {
  for (const auto& [name, value] : {std::pair{"speedup", &m.speedup}, std::pair{"baseline_ms", &m.baselineMs},
                                    std::pair{"candidate_ms", &m.candidateMs}})
    if (*value && !(**value > 0)) return std::string(name) + " must be a positive number";
  if (!m.speedup && m.baselineMs && m.candidateMs) m.speedup = *m.baselineMs / *m.candidateMs;
  if (!m.speedup) return "needs a speedup, or both baseline_ms and candidate_ms";
  return {};
}

// results.csv: a header naming some of kFields (speedup, or baseline_ms and candidate_ms, required), then
// one measurement a row.
std::vector<Measurement> readResultsCsv(const fs::path& path, IssueList& issues) {
  std::vector<Measurement> out;
  const std::string file = path.string();
  auto issue = [&](int line, std::string message, LoadIssue::Severity severity = LoadIssue::Severity::Error) {
    issues.add(LoadIssue{file, line, std::move(message), severity});
  };
  std::optional<std::string> text = readSourceFile(path, issues);
  if (!text) return out;
  std::istringstream in(*text);
  std::vector<std::string> columns;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::optional<std::vector<std::string>> cells = splitCsvRow(line);
    if (!cells) {
      issue(number, "a quote is left open; row skipped");
      continue;
    }
    if (columns.empty()) {
      columns = *cells;
      for (const std::string& c : columns)
        if (!kFields.count(c))
          issue(number,
                "unknown column \"" + c +
                    "\"; expected baseline, speedup, baseline_ms, candidate_ms, device, mode, when — ignored",
                LoadIssue::Severity::Warning);
      const auto has = [&](const char* c) {
        return std::find(columns.begin(), columns.end(), c) != columns.end();
      };
      if (!has("speedup") && !(has("baseline_ms") && has("candidate_ms"))) {
        issue(number, "expected a speedup column, or baseline_ms and candidate_ms; the file is not read");
        return out;
      }
      continue;
    }
    if (cells->size() != columns.size()) {
      issue(number, "expected " + std::to_string(columns.size()) + " columns as in the header, got " +
                        std::to_string(cells->size()) + "; row skipped");
      continue;
    }
    Measurement m;
    m.origin = "recorded";
    std::string problem;
    for (std::size_t i = 0; i < columns.size() && problem.empty(); ++i) {
      const std::string& column = columns[i];
      const std::string& cell = (*cells)[i];
      if (column == "baseline") {
        if (!cell.empty()) m.baseline = cell;
      } else if (column == "device") {
        m.device = cell;
      } else if (column == "mode") {
        m.mode = cell;
      } else if (column == "when") {
        m.when = cell;
      } else if (column == "speedup" || column == "baseline_ms" || column == "candidate_ms") {
        if (cell.empty()) continue;
        const std::optional<double> value = parseCsvNumber(cell);
        if (!value) {
          problem = "expected " + column + " to be a number, got \"" + cell + "\"";
          break;
        }
        (column == "speedup" ? m.speedup : column == "baseline_ms" ? m.baselineMs : m.candidateMs) = value;
      }
    }
    if (problem.empty()) problem = finishMeasurement(m);
    if (!problem.empty()) {
      issue(number, problem + "; row skipped");
      continue;
    }
    out.push_back(std::move(m));
  }
  if (columns.empty()) issue(0, "file is empty: expected a header such as baseline,speedup,device");
  return out;
}

// The 1-based line of byte `offset` in `text`.
int lineOf(const std::string& text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 +
         static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

// results.json: {"measurements": [{"baseline": ..., "speedup": ..., ...}, ...]}, keys as in results.csv.
std::vector<Measurement> readResultsJson(const fs::path& path, IssueList& issues) {
  std::vector<Measurement> out;
  const std::string file = path.string();
  auto error = [&](int line, std::string message) {
    issues.add(LoadIssue{file, line, std::move(message), LoadIssue::Severity::Error});
  };
  std::optional<std::string> text = readSourceFile(path, issues);
  if (!text) return out;
  if (const auto deep = json::tooDeepAt(*text)) {
    error(lineOf(*text, *deep - 1), "JSON " + json::nestingError(*text) + ": not read");
    return out;
  }
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(*text);
  } catch (const nlohmann::json::parse_error& e) {
    error(lineOf(*text, e.byte > 0 ? e.byte - 1 : 0), std::string("not JSON: ") + e.what());
    return out;
  } catch (const nlohmann::json::exception& e) {
    // A number beyond double's range (out_of_range 406, "number overflow parsing '1e999'") carries no byte
    // position: the line is where that number's text first occurs. It used to escape the reader, and the
    // whole folder failed to open (found by the good_kernels_json fuzz target).
    const std::string what = e.what();
    int line = 0;
    if (const auto open = what.find('\''), close = what.rfind('\'');
        open != std::string::npos && close > open + 1) {
      if (const auto at = text->find(what.substr(open + 1, close - open - 1)); at != std::string::npos)
        line = lineOf(*text, at);
    }
    error(line, std::string("not JSON: ") + what);
    return out;
  }
  if (!json.is_object() || !json.contains("measurements") || !json["measurements"].is_array()) {
    error(1, "expected an object {\"measurements\": [...]}");
    return out;
  }
  const nlohmann::json& list = json["measurements"];
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "measurements[" + std::to_string(i) + "]";
    const nlohmann::json& item = list[i];
    if (!item.is_object()) {
      error(0, where + ": expected an object; skipped");
      continue;
    }
    Measurement m;
    std::string problem;
    for (const auto& [key, value] : item.items()) {
      if (!kFields.count(key)) continue;  // unknown keys are ignored, as in run files
      if (key == "speedup" || key == "baseline_ms" || key == "candidate_ms") {
        if (!value.is_number() || !std::isfinite(value.get<double>())) {
          problem = key + " must be a number";
          break;
        }
        (key == "speedup"       ? m.speedup
         : key == "baseline_ms" ? m.baselineMs
                                : m.candidateMs) = value.get<double>();
      } else if (!value.is_string()) {
        problem = key + " must be a string";
        break;
      } else {
        (key == "baseline" ? m.baseline
         : key == "device" ? m.device
         : key == "mode"   ? m.mode
                           : m.when) = value.get<std::string>();
      }
    }
    if (problem.empty()) problem = finishMeasurement(m);
    if (!problem.empty()) {
      error(0, where + ": " + problem + "; skipped");
      continue;
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace

GoodKernelsInput goodKernelsInputKind(const fs::path& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return GoodKernelsInput::None;
  if (isTaskFolder(path)) return GoodKernelsInput::TaskFolder;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec) && isTaskFolder(it->path())) return GoodKernelsInput::Collection;
  return GoodKernelsInput::None;
}

RunFile readGoodKernels(const fs::path& path, const LoadOptions& options) {
  return readGoodKernels(path, options, goodKernelsInputKind(path));
}

RunFile readGoodKernels(const fs::path& path, const LoadOptions& options, GoodKernelsInput kind) {
  RunFile run;
  run.path = path.string();
  run.format = "good-kernels";
  IssueList issues(run.path, run.issues);
  const fs::path named = normalFolder(path);
  run.title = named.filename().string();
  std::vector<fs::path> folders;
  switch (kind) {
    case GoodKernelsInput::TaskFolder:
      folders.push_back(named);
      break;
    case GoodKernelsInput::Collection: {
      std::error_code ec;
      for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_directory(ec)) continue;
        const bool ref = isFile(it->path() / "ref.py"), src = isFile(it->path() / "src.py");
        if (ref && src)
          folders.push_back(it->path());
        else if (ref || src)
          issues.add(LoadIssue{it->path().string(), 0,
                               std::string("task folder has ") +
                                   (ref ? "ref.py but no src.py" : "src.py but no ref.py") + "; skipped",
                               LoadIssue::Severity::Warning});
      }
      std::sort(folders.begin(), folders.end());
      break;
    }
    case GoodKernelsInput::None:
      issues.error(0, "not a good-kernels folder: expected task folders holding ref.py and src.py");
      issues.finish();
      return run;
  }
  for (std::size_t i = 0; i < folders.size(); ++i) {
    if (options.cancel && options.cancel->load()) {
      issues.warning(
          0, "loading was cancelled; " + std::to_string(folders.size() - i) + " task folder(s) not read");
      break;
    }
    const fs::path& folder = folders[i];
    std::optional<std::string> reference = readSourceFile(folder / "ref.py", issues);
    std::optional<std::string> program = readSourceFile(folder / "src.py", issues);
    if (reference) {
      Task& task = run.tasks.emplace_back();
      task.id = folder.filename().string();
      task.name = task.id;
      task.referenceCode = std::move(*reference);
      task.sourceLine = 1;
      Candidate& candidate = task.candidates.emplace_back();
      candidate.id = "src.py";
      candidate.code = std::move(program);  // nullopt (with an issue) when src.py could not be read
      candidate.sourceLine = 1;
      bool hasResults = false;
      if (isFile(folder / "results.csv")) {
        hasResults = true;
        for (Measurement& m : readResultsCsv(folder / "results.csv", issues))
          candidate.measurements.push_back(m);
      }
      if (isFile(folder / "results.json")) {
        hasResults = true;
        for (Measurement& m : readResultsJson(folder / "results.json", issues))
          candidate.measurements.push_back(m);
      }
      if (!hasResults) task.note = kNoResults;
    }
    if (options.progress) options.progress(static_cast<double>(i + 1) / static_cast<double>(folders.size()));
  }
  issues.finish();
  return run;
}

}  // namespace ks
