#include "views/logic/gemm_task_summary.h"

#include <algorithm>
#include <cctype>

#include "core/formats/gemm_tile_config.h"
#include "core/model/task.h"
#include "core/model/text_trim.h"

namespace ks {
namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

// "128" or "128 / 256" when the source writes several values; a name (a template parameter such as
// "Stages") only when no number is written.
std::string values(const TileConfig& config, std::string_view name) {
  const std::vector<const TileParameter*> all = config.all(name);
  const bool numbers =
      std::any_of(all.begin(), all.end(), [](const TileParameter* p) { return p->number.has_value(); });
  std::string text;
  for (const TileParameter* p : all)
    if (!numbers || p->number) text += (text.empty() ? "" : " / ") + p->value;
  return text;
}

}  // namespace

GemmTaskSummary gemmTaskSummary(const Task& task, const Candidate* candidate) {
  GemmTaskSummary s;
  if (!task.gemm) return s;
  const GemmShape& g = *task.gemm;
  s.shape = "M " + std::to_string(g.m) + " × N " + std::to_string(g.n) + " × K " + std::to_string(g.k);
  if (!g.inputType.empty())
    s.shape += " · " + g.inputType + " in" +
               (g.accumulatorType.empty() ? "" : ", " + g.accumulatorType + " accumulate");
  else if (!g.precision.empty())
    s.shape += " · " + g.precision;
  if (!g.gpu.empty()) s.shape += " · " + upper(g.gpu);

  const std::string& d = task.referenceDescription;
  const auto fence = d.find("```");
  s.words = trimmed(std::string_view(d).substr(0, fence));
  if (fence != std::string::npos) {
    const auto bodyStart = d.find('\n', fence);
    const auto close = bodyStart == std::string::npos ? std::string::npos : d.find("```", bodyStart);
    if (bodyStart != std::string::npos)
      s.code = trimmed(std::string_view(d).substr(
          bodyStart + 1, close == std::string::npos ? std::string::npos : close - bodyStart - 1));
  }

  if (candidate && candidate->code) {
    const TileConfig config = parseGemmTileConfig(*candidate->code);
    const std::pair<const char*, const char*> shown[] = {
        {"BM", "BM "},         {"BN", "BN "},   {"BK", "BK "},
        {"stages", "stages "}, {"swizzle", ""}, {"block_swizzle", "block swizzle "}};
    for (const auto& [name, label] : shown) {
      const std::string v = values(config, name);
      if (v.empty()) continue;
      s.tiles += (s.tiles.empty() ? "" : " · ") + std::string(label) + v;
    }
    for (const TileParameter& p : config.parameters)
      s.tileLines += (s.tileLines.empty() ? "" : "\n") + p.name + " = " + p.value + "  (line " +
                     std::to_string(p.line) + ", " + p.spelling + ")";
  }
  return s;
}

}  // namespace ks
