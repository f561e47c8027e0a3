#include <algorithm>
#include <climits>
#include <cstdint>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "core/formats/file_text_source.h"
#include "core/formats/issue_list.h"
#include "core/formats/line_stream.h"
#include "core/formats/parallel_for.h"
#include "core/formats/run_format.h"
#include "core/formats/run_format_scan.h"
#include "core/json/json_fields.h"

namespace ks {

using json::Need;
using json::ObjectReader;

namespace {

struct Header {
  int version = 0;
  std::optional<std::string> title;
  std::string description;
};
struct CandidateLine {
  std::string taskKey;
  Candidate candidate;
};
struct Problem {
  std::string message;
};
// A parsed line: what it holds, plus warnings that do not stop it from loading.
struct Line {
  std::variant<Problem, Header, Task, CandidateLine> content;
  std::vector<std::string> warnings;
};

std::optional<CodeLanguage> parseLanguage(ObjectReader& fields, std::string_view key, std::string context,
                                          std::vector<std::string>& problems) {
  const std::optional<std::string> name = fields.string(key, Need::Optional);
  if (!name || *name == "python") return CodeLanguage::Python;
  if (*name == "cuda") return CodeLanguage::Cuda;
  problems.push_back(context + "expected key \"" + std::string(key) +
                     "\" to be \"python\" or \"cuda\", got \"" + *name + "\"");
  return std::nullopt;
}

Line parseHeader(ObjectReader& fields) {
  Header header;
  const std::optional<int> version = fields.integer("kscope_run", Need::Required, 1);
  header.title = fields.string("title", Need::Optional);
  header.description = fields.string("description", Need::Optional).value_or("");
  fields.string("created", Need::Optional);
  fields.string("generator", Need::Optional);
  if (!fields.ok()) return {Problem{fields.problems().front()}, {}};
  header.version = *version;
  return {std::move(header), {}};
}

Line parseTask(ObjectReader& fields, int lineNumber) {
  Task task;
  task.sourceLine = lineNumber;
  std::vector<std::string> problems;
  const std::optional<int> level = fields.integer("level", Need::Required);
  const std::optional<int> number = fields.integer("number", Need::Required);
  task.name = fields.string("name", Need::Optional).value_or("");
  task.id = fields.string("id", Need::Optional).value_or("");
  task.note = fields.string("note", Need::Optional).value_or("");
  if (Json* reference = fields.object("reference", Need::Required)) {
    ObjectReader ref(*reference, "reference: ");
    const std::optional<CodeLanguage> language = parseLanguage(ref, "language", "reference: ", problems);
    std::optional<std::string> code = ref.string("code", Need::Required);
    task.referenceDescription = ref.string("description", Need::Optional).value_or("");
    problems.insert(problems.end(), ref.problems().begin(), ref.problems().end());
    if (language) task.referenceLanguage = *language;
    if (code) task.referenceCode = std::move(*code);
  }
  if (Json* baselines = fields.object("baselines", Need::Optional)) {
    for (auto& [name, program] : baselines->items()) {
      if (!program.is_string()) {
        problems.push_back("expected baseline \"" + name + "\" to be a program (a string), got " +
                           json::describe(program));
        continue;
      }
      task.baselinePrograms.emplace_back(name, std::move(program.get_ref<std::string&>()));
    }
  }
  problems.insert(problems.begin(), fields.problems().begin(), fields.problems().end());
  if (!problems.empty()) return {Problem{std::move(problems.front())}, {}};
  task.level = *level;
  task.number = *number;
  return {std::move(task), {}};
}

std::optional<Measurement> parseMeasurement(Json& value, std::size_t index,
                                            std::vector<std::string>& problems,
                                            std::vector<std::string>& warnings) {
  const std::string context = "measurement " + std::to_string(index + 1) + ": ";
  if (!value.is_object()) {
    problems.push_back(context + "expected an object, got " + json::describe(value));
    return std::nullopt;
  }
  ObjectReader fields(value, context);
  Measurement m;
  m.baseline = fields.string("baseline", Need::Optional).value_or("default");
  m.speedup = fields.number("speedup", Need::Optional, /*positive=*/true);
  m.baselineMs = fields.number("baseline_ms", Need::Optional, /*positive=*/true);
  m.candidateMs = fields.number("candidate_ms", Need::Optional, /*positive=*/true);
  m.device = fields.string("device", Need::Optional).value_or("");
  m.origin = fields.string("origin", Need::Optional).value_or("recorded");
  m.when = fields.string("when", Need::Optional).value_or("");
  m.mode = fields.string("mode", Need::Optional).value_or("");
  m.outcome = fields.string("outcome", Need::Optional).value_or("");
  m.error = fields.string("error", Need::Optional).value_or("");
  problems.insert(problems.end(), fields.problems().begin(), fields.problems().end());
  if (m.origin != "recorded" && m.origin != "measured")
    problems.push_back(context + "expected key \"origin\" to be \"recorded\" or \"measured\", got \"" +
                       m.origin + "\"");
  if (!m.outcome.empty() && m.outcome != "correct" && m.outcome != "incorrect" && m.outcome != "error")
    problems.push_back(context +
                       "expected key \"outcome\" to be \"correct\", \"incorrect\" or \"error\", got \"" +
                       m.outcome + "\"");
  const bool failed = m.outcome == "incorrect" || m.outcome == "error";
  if (!failed && !m.speedup && !(m.baselineMs && m.candidateMs))
    warnings.push_back(context + "has neither \"speedup\" nor both \"baseline_ms\" and \"candidate_ms\"");
  return m;
}

Line parseCandidate(ObjectReader& fields, int lineNumber) {
  CandidateLine line;
  Candidate& c = line.candidate;
  c.sourceLine = lineNumber;
  std::vector<std::string> problems, warnings;
  std::optional<std::string> task = fields.string("task", Need::Required);
  std::optional<std::string> id = fields.string("id", Need::Required);
  if (Json* parents = fields.array("parents", Need::Optional)) {
    for (std::size_t i = 0; i < parents->size(); ++i) {
      Json& parent = (*parents)[i];
      if (parent.is_string())
        c.parents.push_back(std::move(parent.get_ref<std::string&>()));
      else
        problems.push_back("expected parent " + std::to_string(i + 1) +
                           " to be a candidate id (a string), got " + json::describe(parent));
    }
  }
  c.step = fields.integer("step", Need::Optional, INT_MIN);
  if (std::optional<CodeLanguage> language = parseLanguage(fields, "language", "", problems))
    c.language = *language;
  c.code = fields.string("code", Need::Optional);
  if (std::optional<std::string> analysis = fields.string("analysis", Need::Optional);
      analysis && !analysis->empty())
    c.analysis = std::move(*analysis);
  if (Json* measurements = fields.array("measurements", Need::Optional))
    for (std::size_t i = 0; i < measurements->size(); ++i)
      if (auto m = parseMeasurement((*measurements)[i], i, problems, warnings))
        c.measurements.push_back(std::move(*m));
  problems.insert(problems.begin(), fields.problems().begin(), fields.problems().end());
  if (!problems.empty()) return {Problem{std::move(problems.front())}, {}};
  line.taskKey = std::move(*task);
  c.id = std::move(*id);
  return {std::move(line), std::move(warnings)};
}

Line parseLine(const TextLine& text, CandidateScan* scan) {
  if (scan) {
    CandidateLine line;
    if (scanCandidateLine(text.text, text.offset, *scan, line.taskKey, line.candidate)) {
      line.candidate.sourceLine = text.number;
      return {std::move(line), {}};
    }
  }
  std::string error;
  std::optional<Json> json = json::parseLine(text.text, text.lastWithoutNewline, error);
  if (!json) return {Problem{std::move(error)}, {}};
  if (!json->is_object()) return {Problem{"expected a JSON object, got " + json::describe(*json)}, {}};
  ObjectReader fields(*json);
  if (json->contains("kscope_run")) return parseHeader(fields);
  const auto type = json->find("type");
  if (type == json->end()) return {Problem{"missing key \"type\" (expected \"task\" or \"candidate\")"}, {}};
  if (*type == "task") return parseTask(fields, text.number);
  if (*type == "candidate") return parseCandidate(fields, text.number);
  return {Problem{"expected key \"type\" to be \"task\" or \"candidate\", got " + json::describe(*type)}, {}};
}

// Puts parsed lines together in file order: the header first, tasks by key, candidates under their task.
class RunAssembler {
 public:
  RunAssembler(RunFile& run, IssueList& issues) : run_(run), issues_(issues) {}

  // Returns false when the rest of the file must not be read (a newer format version).
  bool add(Line& line, int lineNumber) {
    for (std::string& warning : line.warnings) issues_.warning(lineNumber, std::move(warning));
    const bool first = !seenFirstLine_;
    seenFirstLine_ = true;
    if (auto* header = std::get_if<Header>(&line.content)) return addHeader(*header, lineNumber, first);
    if (first)
      issues_.error(lineNumber, "expected the header line {\"kscope_run\": " +
                                    std::to_string(kRunFormatVersion) + ", ...} first; reading on");
    if (auto* problem = std::get_if<Problem>(&line.content)) {
      issues_.error(lineNumber, std::move(problem->message) + "; line skipped");
    } else if (auto* task = std::get_if<Task>(&line.content)) {
      addTask(std::move(*task), lineNumber);
    } else {
      addCandidate(std::get<CandidateLine>(line.content), lineNumber);
    }
    return true;
  }

  // Warns about parents that name no candidate of their task; gives back what the vectors hold spare.
  void finish() {
    for (std::size_t t = 0; t < run_.tasks.size(); ++t) {
      Task& task = run_.tasks[t];
      task.candidates.shrink_to_fit();
      const CandidateIds* ids = t < candidateIds_.size() ? &candidateIds_[t] : nullptr;
      for (const Candidate& c : task.candidates)
        for (const std::string& parent : c.parents)
          if (!ids || !ids->contains(std::string_view(parent)))
            issues_.warning(c.sourceLine, "candidate \"" + c.id + "\" of " + task.key() + " names parent \"" +
                                              parent + "\", which is not a candidate of that task");
    }
    candidateIds_.clear();
  }

 private:
  bool addHeader(const Header& header, int lineNumber, bool first) {
    if (!first) {
      issues_.error(lineNumber, "a header line may only be the first line; line skipped");
      return true;
    }
    if (header.version > kRunFormatVersion) {
      issues_.error(lineNumber, "file is kscope-run version " + std::to_string(header.version) +
                                    "; this KernelScope reads versions up to " +
                                    std::to_string(kRunFormatVersion) +
                                    " (a newer KernelScope is needed); nothing loaded");
      return false;
    }
    if (header.title) run_.title = *header.title;
    run_.description = header.description;
    return true;
  }

  void addTask(Task&& task, int lineNumber) {
    std::string key = task.key();
    const auto [it, added] = taskIndex_.emplace(key, run_.tasks.size());
    if (!added) {
      issues_.error(lineNumber, "duplicate task " + key + " (first on line " +
                                    std::to_string(run_.tasks[it->second].sourceLine) + "); line skipped");
      return;
    }
    run_.tasks.push_back(std::move(task));
  }

  void addCandidate(CandidateLine& line, int lineNumber) {
    const auto it = taskIndex_.find(line.taskKey);
    if (it == taskIndex_.end()) {
      issues_.error(lineNumber, "candidate \"" + line.candidate.id + "\" names task \"" + line.taskKey +
                                    "\", which no task line above defines; line skipped");
      return;
    }
    const std::size_t t = it->second;
    Task& task = run_.tasks[t];
    if (candidateIds_.size() <= t)
      for (std::size_t i = candidateIds_.size(); i <= t; ++i)
        candidateIds_.emplace_back(0, IdHash{&run_, i}, IdEqual{&run_, i});
    task.candidates.push_back(std::move(line.candidate));
    if (!candidateIds_[t].insert(static_cast<std::uint32_t>(task.candidates.size() - 1)).second) {
      issues_.error(lineNumber, "duplicate candidate id \"" + task.candidates.back().id + "\" in task " +
                                    line.taskKey + "; line skipped");
      task.candidates.pop_back();
    }
  }

  RunFile& run_;
  IssueList& issues_;
  bool seenFirstLine_ = false;
  std::unordered_map<std::string, std::size_t> taskIndex_;
  // Per task, its candidates' ids as indexes into Task::candidates, looked up by id: a set of strings held
  // a second copy of every id (~70 MB at a million candidates).
  struct IdHash {
    using is_transparent = void;
    const RunFile* run;
    std::size_t task;
    std::size_t operator()(std::string_view id) const { return std::hash<std::string_view>{}(id); }
    std::size_t operator()(std::uint32_t index) const { return (*this)(idOf(index)); }
    std::string_view idOf(std::uint32_t index) const { return run->tasks[task].candidates[index].id; }
  };
  struct IdEqual {
    using is_transparent = void;
    const RunFile* run;
    std::size_t task;
    std::string_view idOf(std::uint32_t index) const { return run->tasks[task].candidates[index].id; }
    bool operator()(std::uint32_t a, std::uint32_t b) const { return idOf(a) == idOf(b); }
    bool operator()(std::string_view a, std::uint32_t b) const { return a == idOf(b); }
    bool operator()(std::uint32_t a, std::string_view b) const { return idOf(a) == b; }
  };
  using CandidateIds = std::unordered_set<std::uint32_t, IdHash, IdEqual>;
  std::vector<CandidateIds> candidateIds_;  // by task index
};

}  // namespace

RunFile readRunFile(const std::filesystem::path& path, const LoadOptions& options) {
  RunFile run;
  run.path = path.string();
  run.format = "kscope-run";
  run.title = path.filename().string();
  IssueList issues(run.path, run.issues);
  if (std::string problem = fileOpenProblem(path); !problem.empty()) {
    issues.error(0, "cannot read: " + problem);
    issues.finish();
    return run;
  }
  // Programs and analyses stay in the file, which stays open for them (file_text_source.h).
  std::string problem;
  const std::shared_ptr<JsonStringFile> file = JsonStringFile::open(path, problem);
  if (!file) {
    issues.error(0, "cannot read: " + problem);
    issues.finish();
    return run;
  }
  RunAssembler assembler(run, issues);
  std::vector<Line> parsed;
  // Lines are parsed in parallel in chunks, each with its own cache of measurement names: chunks of at least
  // 256 KiB of the block, so that a small file (a sample run, a fuzzer's input) is parsed on this thread.
  constexpr std::size_t kMinChunkBytes = std::size_t{256} << 10;
  const LineStreamResult stream =
      streamLines(file->descriptor(), path, options, issues, [&](std::span<const TextLine> lines) {
        parsed.resize(lines.size());
        const auto bytes = static_cast<std::size_t>(lines.back().offset - lines.front().offset) +
                           lines.back().text.size();
        parallelRanges(lines.size(), chunkCount(bytes, kMinChunkBytes), [&](std::size_t, std::size_t first, std::size_t last) {
          CandidateScan scan{file, {}};
          for (std::size_t i = first; i < last; ++i)
            parsed[i] = parseLine(lines[i], options.fastCandidateLines ? &scan : nullptr);
        });
        for (std::size_t i = 0; i < lines.size(); ++i)
          if (!assembler.add(parsed[i], lines[i].number)) return false;
        return true;
      });
  if (stream.opened && stream.nonBlankLines == 0)
    issues.error(0, "file is empty; expected a kscope run file (first line {\"kscope_run\": 1})");
  assembler.finish();
  issues.finish();
  return run;
}

}  // namespace ks
