#pragma once
// Why CUDA-L2's number and KernelScope's differ, for one GEMM run, from what the run measured (never a
// guess): per baseline where the two methods differ by more than their noise, the steps between them, each a
// number the runner timed —
//   cuda-l2-offline (host clock, as CUDA-L2's harness) → the same protocol by CUDA events (what the host
//   clock's per-call overhead does to the ratio, with the overhead in µs) → kscope-l2-warm (one loop, shared
//   inputs, medians) → kscope-l2-flushed (L2 flushed before each call: KernelScope's own number).
// `kscope run`, the GUI's measurements and the report show these lines under the table; docs/method-fidelity.md
// says how the same steps compare with CUDA-L2's own harness on the GPU.
#include <optional>
#include <string>
#include <vector>

#include "core/protocol/evaluate_result.h"

namespace ks::runs {

// Two speedups differ beyond noise when their ratio is more than max(spread, kMethodTolerance) from 1.
inline constexpr double kMethodTolerance = 0.05;

struct MethodGap {
  std::string baseline;            // the release column name
  double seed = 0, own = 0;        // cuda-l2-offline's and kscope-l2-flushed's speedups
  double spread = 0;               // cuda-l2-offline's relative 95 % half-width (0: not known)
  std::optional<double> events;    // the same protocol by CUDA events
  std::optional<double> warm;      // kscope-l2-warm
  // Per call, µs: the host clock's reading minus the events' in the same protocol (kernel, baseline).
  std::optional<double> kernelOverheadUs, baselineOverheadUs;
  std::string text;  // one sentence for a person (below)
};

// The baselines of `baselines` (torch.matmul and the six measured layouts; not the derived -max rows) whose
// two numbers differ beyond noise, in the release's column order.
std::vector<MethodGap> methodGaps(const protocol::GemmBaselines& baselines);

}  // namespace ks::runs
