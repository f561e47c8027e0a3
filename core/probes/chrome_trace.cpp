#include "core/probes/chrome_trace.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <utility>
#include <vector>
#include <nlohmann/json.hpp>

namespace ks::engine {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::int64_t intArg(const nlohmann::json& e, const char* key, std::int64_t missing = 0) {
  if (!e.contains("args") || !e["args"].is_object()) return missing;
  const auto& args = e["args"];
  if (!args.contains(key) || !args[key].is_number()) return missing;
  return args[key].get<std::int64_t>();
}

}  // namespace

ChromeTrace readChromeTrace(const std::string& traceJson) {
  ChromeTrace out;
  const nlohmann::json trace = nlohmann::json::parse(traceJson, nullptr, false);
  if (!trace.is_object() || !trace.contains("traceEvents") || !trace["traceEvents"].is_array()) return out;
  out.valid = true;
  for (const auto& e : trace["traceEvents"]) {
    if (!e.is_object() || !e.contains("cat") || !e["cat"].is_string()) continue;
    const std::string cat = lower(e["cat"].get<std::string>());
    if (cat == "kernel") {
      out.kernels.push_back({e.value("name", ""), intArg(e, "stream"), e.value("ts", 0.0),
                             e.value("dur", 0.0), intArg(e, "correlation"), false});
    } else if (cat == "cuda_sync") {
      out.syncEventsRecorded = true;
      if (lower(e.value("name", "")).find("wait") != std::string::npos)
        out.waits.push_back({intArg(e, "stream"), intArg(e, "wait_on_stream", -1)});
    }
  }
  std::stable_sort(out.kernels.begin(), out.kernels.end(),
                   [](const TraceKernel& a, const TraceKernel& b) { return a.startUs < b.startUs; });
  TraceKernel *first = nullptr, *last = nullptr;
  for (TraceKernel& k : out.kernels) {
    if (k.name.find(kMarkerKernel) == std::string::npos) continue;
    if (!first || k.correlation < first->correlation) first = &k;
    if (!last || k.correlation > last->correlation) last = &k;
  }
  if (first && last && first != last) first->marker = last->marker = true;
  return out;
}

double kernelBusyMs(const ChromeTrace& trace) {
  std::vector<std::pair<double, double>> spans;
  for (const TraceKernel& k : trace.kernels)
    if (!k.marker && k.durationUs > 0) spans.emplace_back(k.startUs, k.startUs + k.durationUs);
  std::sort(spans.begin(), spans.end());
  double busyUs = 0, end = -std::numeric_limits<double>::infinity();
  for (const auto& [from, to] : spans) {
    if (to <= end) continue;
    busyUs += to - std::max(from, end);
    end = to;
  }
  return busyUs / 1000;
}

std::vector<protocol::KernelLaunch> kernelsFromChromeTrace(const ChromeTrace& trace,
                                                           const std::string& model) {
  std::vector<protocol::KernelLaunch> out;
  std::map<std::pair<std::string, std::int64_t>, std::size_t> index;
  for (const TraceKernel& k : trace.kernels) {
    if (k.marker) continue;
    auto [it, fresh] = index.try_emplace({k.name, k.stream}, out.size());
    if (fresh) out.push_back({model, k.name, k.stream, 0, 0});
    out[it->second].calls += 1;
    out[it->second].totalUs += k.durationUs;
  }
  return out;
}

}  // namespace ks::engine
