#pragma once
// The baselines a GEMM candidate is timed against (EvaluateResult::baselines), named as the CUDA-L2
// release's CSV columns, and the release's rule for its "-max" columns.
#include <string>
#include <vector>

#include "core/protocol/evaluate_result.h"

namespace ks::protocol {

// The baselines the runner times, in the release's column order: "torch.matmul", "cuBLAS-tn", "cuBLAS-nn",
// "cuBLASLt-heuristic-tn", "cuBLASLt-heuristic-nn", "cuBLASLt-auto-tuning-tn", "cuBLASLt-auto-tuning-nn".
const std::vector<std::string>& measuredGemmBaselines();
// Every column of the release, the derived "-max" ones after their pair: the order tables show them in.
const std::vector<std::string>& gemmBaselineColumns();

// The release's "-max" columns: per method, of the TN and NN layouts of one library the faster baseline
// (the larger baseline time, i.e. the smaller speedup: 64_64_64 records cuBLAS-tn 1.859, -nn 1.887,
// -max 1.859). Appends "cuBLAS-max", "cuBLASLt-heuristic-max", "cuBLASLt-auto-tuning-max" for every method
// that has both layouts, each naming the layout it took (fasterOf); the rest is unchanged.
std::vector<BaselineTiming> withFasterLayouts(std::vector<BaselineTiming> timings);

// The timing of `baseline` by `method`, or nullptr.
const BaselineTiming* findTiming(const GemmBaselines& b, const std::string& baseline, const std::string& method);

}  // namespace ks::protocol
