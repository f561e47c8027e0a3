// l2-persistence: the candidate's C++/CUDA (or Python through cuda-python) sets a persisting-L2 access
// policy window on a stream or reserves persisting L2 (cudaLimitPersistingL2CacheSize). A harness that
// times the same inputs every trial then times an L2-resident working set that later calls, and the
// reference, never get.
#include <string>

#include "core/flags/rule_context.h"

namespace ks {

void checkL2Persistence(const RuleContext& ctx, std::vector<Flag>& out) {
  std::vector<int> lines;
  std::string evidence, what;
  for (const EmbeddedUse& u :
       ctx.cppUses({"accessPolicyWindow", "cudaStreamAttributeAccessPolicyWindow", "cudaLimitPersistingL2CacheSize",
                    "cudaAccessPropertyPersisting", "CU_LIMIT_PERSISTING_L2_CACHE_SIZE",
                    "CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW", "cudaKernelNodeAttributeAccessPolicyWindow",
                    "cudaLaunchAttributeAccessPolicyWindow", "hitProp"})) {
    lines.push_back(u.pythonLine);
    if (evidence.size() < 600) evidence += ctx.cppEvidence(u) + "\n";
    if (what.find(u.identifier->last) == std::string::npos) what += (what.empty() ? "" : ", ") + u.identifier->last;
  }
  const py::PyModule& m = ctx.candidate;
  for (const py::Call& c : m.calls())
    if (endsWithMember(c.resolved, "cudaStreamSetAttribute") || endsWithMember(c.resolved, "cudaDeviceSetLimit") ||
        endsWithMember(c.resolved, "cuCtxSetLimit") || endsWithMember(c.resolved, "cuStreamSetAttribute")) {
      const std::string args = m.compactText(c.tokens);
      if (args.find("ersist") == std::string::npos && args.find("ccessPolicy") == std::string::npos) continue;
      lines.push_back(c.line);
      what += (what.empty() ? "" : ", ") + c.callee;
      evidence += excerptOf(m, {c.line}) + "\n";
    }
  if (lines.empty()) return;
  out.push_back(makeFlag("l2-persistence", FlagSeverity::Suspicious, 0.7,
                         "Makes data persist in the L2 cache (" + what +
                             "): with the same inputs every trial, the timed calls read from L2 what an "
                             "honest call reads from memory.",
                         lines, evidence));
}

}  // namespace ks
