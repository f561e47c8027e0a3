// fallback-to-reference and no-custom-kernel: whose kernels the profiled call ran (kernel-origin).
#include "core/probes/verdicts.h"

namespace ks::engine::verdicts {

void kernelOrigin(const ProbeEvidence& e, Flags& out) {
  const KernelOriginEvidence& k = e.kernelOrigin;
  if (!k.profiled) return;
  Json evidence = {
      {"declared_kernels", k.declaredKernels},   {"declared_kernels_ran", k.declaredRan},
      {"candidate_builds", k.candidateBuilds},   {"failed_builds", k.failedBuilds},
      {"candidate_kernels", k.candidateKernels}, {"kernels_not_in_reference", k.kernelsNotInReference}};
  if (!k.declaredKernels.empty() && k.declaredRan.empty()) {
    std::string names;
    for (const std::string& n : k.declaredKernels) names += (names.empty() ? "" : ", ") + n;
    add(out, "fallback-to-reference", "benign", 0.8, "kernel-origin",
        "The candidate declares CUDA kernels (" + names + ") but none of them ran in the profiled call" +
            (k.failedBuilds > 0 ? " (its build failed)" : "") + ": the time is that of its PyTorch path.",
        std::move(evidence));
  } else if (k.declaredKernels.empty() && !k.tritonKernels && k.candidateBuilds == 0) {
    add(out, "no-custom-kernel", "benign", 0.7, "kernel-origin",
        "The candidate built no extension and declares no kernel; its call ran " +
            std::to_string(k.candidateKernels) + " library kernel(s), " +
            std::to_string(k.kernelsNotInReference) + " of them not in the reference's call.",
        std::move(evidence));
  }
}

}  // namespace ks::engine::verdicts
