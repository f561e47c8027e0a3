#include "core/runs/gemm_baseline_table.h"

#include <algorithm>
#include <cstdio>

#include "core/protocol/gemm_baselines.h"
#include "core/runs/agreement.h"
#include "core/runs/method_gap.h"
#include "core/runs/number_text.h"
#include "core/stats/gemm_methods.h"

namespace ks::runs {
namespace {

std::string padded(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

GemmBaselineTable gemmBaselineTable(const protocol::GemmBaselines& baselines, const Candidate& recorded) {
  GemmBaselineTable table;
  table.notes = baselines.notes;
  for (const MethodGap& gap : methodGaps(baselines)) table.gaps.push_back(gap.text);
  std::vector<stats::GemmMethod> methods;
  for (stats::GemmMethod m : stats::kGemmMethods) {
    bool has = false;
    int rounds = 0;
    for (const auto& t : baselines.timings)
      if (t.method == stats::gemmMethodName(m)) {
        has = true;
        rounds = std::max(rounds, t.rounds);
      }
    if (!has) continue;
    methods.push_back(m);
    table.methods.push_back(stats::gemmMethodName(m));
    table.rounds.push_back(rounds);
  }
  for (const std::string& name : protocol::gemmBaselineColumns()) {
    GemmBaselineRow row;
    row.baseline = name;
    bool any = false;
    for (stats::GemmMethod m : methods) {
      GemmBaselineCell cell;
      if (const auto* t = protocol::findTiming(baselines, name, stats::gemmMethodName(m))) {
        cell.measured = t->speedup;
        if (row.fasterOf.empty()) row.fasterOf = t->fasterOf;
      }
      if (const std::string mode = stats::recordedMode(m); !mode.empty())
        cell.recorded = recorded.speedup(name, mode);
      cell.disagrees = cell.measured && cell.recorded && disagrees(*cell.measured, *cell.recorded);
      any = any || cell.measured;
      row.cells.push_back(cell);
    }
    if (any) table.rows.push_back(std::move(row));
  }
  return table;
}

std::vector<std::string> gemmBaselineLines(const GemmBaselineTable& table) {
  std::vector<std::string> lines;
  if (table.rows.empty()) {
    for (const std::string& note : table.notes) lines.push_back(note);
    return lines;
  }
  // Column widths from the widest text in each (plus two spaces), so a long baseline name such as
  // "cuBLASLt-auto-tuning-max = nn" or a header such as "cuda-l2-offline (200)" never runs into its neighbour.
  auto nameOf = [](const GemmBaselineRow& row) {
    return row.baseline + (row.fasterOf.empty() ? "" : " = " + row.fasterOf.substr(row.fasterOf.rfind('-') + 1));
  };
  auto textOf = [](const GemmBaselineCell& cell) {
    std::string text = cell.measured ? fixed2(*cell.measured) : "-";
    if (cell.recorded) text += " (" + fixed2(*cell.recorded) + ")";
    if (cell.disagrees) text += " !";
    return text;
  };
  std::vector<std::string> heads;
  for (std::size_t i = 0; i < table.methods.size(); ++i)
    heads.push_back(table.methods[i] + " (" + std::to_string(table.rounds[i]) + ")");
  std::size_t nameWidth = std::string("baseline").size();
  std::vector<std::size_t> widths;
  for (const std::string& h : heads) widths.push_back(h.size());
  for (const GemmBaselineRow& row : table.rows) {
    nameWidth = std::max(nameWidth, nameOf(row).size());
    for (std::size_t i = 0; i < row.cells.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], textOf(row.cells[i]).size());
  }
  constexpr std::size_t kGap = 2;
  auto finish = [&lines](std::string line) {
    while (!line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(std::move(line));
  };
  std::string header = padded("baseline", nameWidth + kGap);
  for (std::size_t i = 0; i < heads.size(); ++i) header += padded(heads[i], widths[i] + kGap);
  finish(header);
  for (const GemmBaselineRow& row : table.rows) {
    std::string line = padded(nameOf(row), nameWidth + kGap);
    for (std::size_t i = 0; i < row.cells.size(); ++i)
      line += padded(textOf(row.cells[i]), (i < widths.size() ? widths[i] : 0) + kGap);
    finish(line);
  }
  for (const std::string& gap : table.gaps) lines.push_back(gap);
  for (const std::string& note : table.notes) lines.push_back(note);
  return lines;
}

}  // namespace ks::runs
