#include "core/protocol/gemm_baselines.h"

namespace ks::protocol {

const std::vector<std::string>& measuredGemmBaselines() {
  static const std::vector<std::string> names{"torch.matmul",          "cuBLAS-tn",
                                              "cuBLAS-nn",             "cuBLASLt-heuristic-tn",
                                              "cuBLASLt-heuristic-nn", "cuBLASLt-auto-tuning-tn",
                                              "cuBLASLt-auto-tuning-nn"};
  return names;
}

const std::vector<std::string>& gemmBaselineColumns() {
  static const std::vector<std::string> names{
      "torch.matmul",          "cuBLAS-tn",          "cuBLAS-nn",
      "cuBLAS-max",            "cuBLASLt-heuristic-tn", "cuBLASLt-heuristic-nn",
      "cuBLASLt-heuristic-max", "cuBLASLt-auto-tuning-tn", "cuBLASLt-auto-tuning-nn",
      "cuBLASLt-auto-tuning-max"};
  return names;
}

std::vector<BaselineTiming> withFasterLayouts(std::vector<BaselineTiming> timings) {
  std::vector<BaselineTiming> derived;
  std::vector<std::string> methods;
  for (const BaselineTiming& t : timings) {
    bool seen = false;
    for (const std::string& m : methods) seen = seen || m == t.method;
    if (!seen) methods.push_back(t.method);
  }
  for (const char* library : {"cuBLAS", "cuBLASLt-heuristic", "cuBLASLt-auto-tuning"}) {
    const std::string lib = library;
    for (const std::string& method : methods) {
      const BaselineTiming *tn = nullptr, *nn = nullptr;
      for (const BaselineTiming& t : timings) {
        if (t.method != method) continue;
        if (t.baseline == lib + "-tn") tn = &t;
        if (t.baseline == lib + "-nn") nn = &t;
      }
      if (!tn || !nn || !(tn->speedup > 0) || !(nn->speedup > 0)) continue;
      BaselineTiming max = tn->speedup <= nn->speedup ? *tn : *nn;
      max.fasterOf = max.baseline;
      max.baseline = lib + "-max";
      derived.push_back(std::move(max));
    }
  }
  timings.insert(timings.end(), derived.begin(), derived.end());
  return timings;
}

const BaselineTiming* findTiming(const GemmBaselines& b, const std::string& baseline, const std::string& method) {
  for (const BaselineTiming& t : b.timings)
    if (t.baseline == baseline && t.method == method) return &t;
  return nullptr;
}

}  // namespace ks::protocol
