#include "core/runs/gemm_baseline_table.h"

#include <algorithm>
#include <cstdio>

#include "core/protocol/gemm_baselines.h"
#include "core/runs/agreement.h"
#include "core/stats/gemm_methods.h"

namespace ks::runs {
namespace {

std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string padded(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

GemmBaselineTable gemmBaselineTable(const protocol::GemmBaselines& baselines, const Candidate& recorded) {
  GemmBaselineTable table;
  table.notes = baselines.notes;
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
  constexpr std::size_t kName = 28, kCell = 20;
  std::string header = padded("baseline", kName);
  for (std::size_t i = 0; i < table.methods.size(); ++i)
    header += padded(table.methods[i] + " (" + std::to_string(table.rounds[i]) + ")", kCell);
  lines.push_back(header);
  for (const GemmBaselineRow& row : table.rows) {
    std::string line = padded(row.baseline + (row.fasterOf.empty() ? "" : " = " + row.fasterOf.substr(row.fasterOf.rfind('-') + 1)), kName);
    for (const GemmBaselineCell& cell : row.cells) {
      std::string text = cell.measured ? fixed2(*cell.measured) : "-";
      if (cell.recorded) text += " (" + fixed2(*cell.recorded) + ")";
      if (cell.disagrees) text += " !";
      line += padded(text, kCell);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    lines.push_back(line);
  }
  for (const std::string& note : table.notes) lines.push_back(note);
  return lines;
}

}  // namespace ks::runs
