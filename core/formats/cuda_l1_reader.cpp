#include "core/formats/cuda_l1_reader.h"

#include <array>
#include <cctype>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/formats/issue_list.h"
#include "core/formats/line_stream.h"
#include "core/formats/parallel_for.h"
#include "core/formats/task_name.h"
#include "core/json/json_fields.h"

namespace ks {

using json::Need;
using json::ObjectReader;

namespace {

// CUDA-L1 score keys and the baseline names they become.
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kScores = {{
    {"score_default", "default"},
    {"score_torch_compile_default", "torch_compile_default"},
    {"score_torch_compile_reduce_overhead", "torch_compile_reduce_overhead"},
    {"score_cuda_graph", "cuda_graph"},
    {"score_cudnn", "cudnn"},
}};
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kBaselinePrograms = {{
    {"cuda_graph_code", "cuda_graph"},
    {"cudnn_code", "cudnn"},
}};

// One line of the file: a task (with its one candidate) unless a required key was bad.
struct Row {
  std::optional<Task> task;
  std::vector<std::string> problems;  // each reported as an error on the row's line
};

Row parseRow(const TextLine& line, const std::string& device) {
  Row row;
  std::string error;
  std::optional<Json> json = json::parseLine(line.text, line.lastWithoutNewline, error);
  if (!json) {
    row.problems.push_back(std::move(error));
    return row;
  }
  if (!json->is_object()) {
    row.problems.push_back("expected a JSON object (one task a line), got " + json::describe(*json));
    return row;
  }
  ObjectReader fields(*json);
  const std::optional<int> level = fields.integer("level_id", Need::Required);
  const std::optional<int> number = fields.integer("task_id", Need::Required);
  std::optional<std::string> reference = fields.string("ref_code", Need::Required);
  if (!level || !number || !reference) {
    row.problems = fields.problems();
    row.problems.back() += "; line skipped";
    return row;
  }
  Task& task = row.task.emplace();
  task.level = *level;
  task.number = *number;
  task.name = taskNameFromReference(*reference);
  task.referenceCode = std::move(*reference);
  task.sourceLine = line.number;
  for (const auto& [key, baseline] : kBaselinePrograms)
    if (std::optional<std::string> program = fields.string(key, Need::Optional))
      task.baselinePrograms.emplace_back(baseline, std::move(*program));

  Candidate& candidate = task.candidates.emplace_back();
  candidate.id = "cuda-l1";
  candidate.code = fields.string("custom_code", Need::Optional);
  candidate.sourceLine = line.number;
  for (const auto& [key, baseline] : kScores)
    if (std::optional<double> speedup = fields.number(key, Need::Optional, /*positive=*/true)) {
      Measurement& m = candidate.measurements.emplace_back();
      m.baseline = baseline;
      m.speedup = speedup;
      m.device = device;
      m.origin = "recorded";
    }
  row.problems = fields.problems();
  return row;
}

// "H100 (as recorded by CUDA-L1)" when the file name names a GPU CUDA-L1 released results for.
std::string deviceFromFileName(const std::filesystem::path& path) {
  static constexpr std::array<std::string_view, 8> kGpus = {"h800", "h200", "h100",    "h20",
                                                            "a100", "l40",  "rtx3090", "rtx4090"};
  std::string name = path.filename().string();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view gpu : kGpus)
    if (name.find(gpu) != std::string::npos) {
      std::string label(gpu);
      for (char& c : label) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return label + " (as recorded by CUDA-L1)";
    }
  return {};
}

}  // namespace

RunFile readCudaL1(const std::filesystem::path& path, const LoadOptions& options) {
  RunFile run;
  run.path = path.string();
  run.format = "cuda-l1";
  run.title = path.filename().string();
  const std::string device =
      options.recordedDevice.empty() ? deviceFromFileName(path) : options.recordedDevice;
  IssueList issues(run.path, run.issues);
  std::unordered_map<std::string, int> firstLineOfTask;

  std::vector<Row> rows;
  const LineStreamResult stream = streamLines(path, options, issues, [&](std::span<const TextLine> lines) {
    rows.assign(lines.size(), Row{});
    parallelFor(lines.size(), [&](std::size_t i) { rows[i] = parseRow(lines[i], device); });
    for (std::size_t i = 0; i < lines.size(); ++i) {
      Row& row = rows[i];
      const int lineNumber = lines[i].number;
      for (std::string& problem : row.problems) issues.error(lineNumber, std::move(problem));
      if (!row.task) continue;
      const auto [it, added] = firstLineOfTask.emplace(row.task->key(), lineNumber);
      if (!added) {
        issues.error(lineNumber, "duplicate task " + row.task->key() + " (first on line " +
                                     std::to_string(it->second) + "); line skipped");
        continue;
      }
      run.tasks.push_back(std::move(*row.task));
    }
    return true;
  });
  if (stream.opened && stream.nonBlankLines == 0)
    issues.error(0, "file is empty; expected CUDA-L1 JSON Lines, one task a line");
  issues.finish();
  return run;
}

}  // namespace ks
