#pragma once
// Internal to core/flags: what every static rule reads (both programs parsed once, the candidate's
// embedded CUDA/C++ sources and their identifiers), the helpers rules share, and the rules themselves,
// one per file (rule_<family>.cpp).
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/flags/cpp_identifiers.h"
#include "core/flags/flag.h"
#include "core/pysource/embedded_sources.h"
#include "core/pysource/py_module.h"

namespace ks {

// An identifier in one of the candidate's embedded sources, placed on its Python line.
struct EmbeddedUse {
  const CppIdentifier* identifier = nullptr;
  int source = 0;      // index into RuleContext::embedded().sources
  int pythonLine = 0;  // 1-based line of the candidate program
};

class RuleContext {
 public:
  RuleContext(const py::PyModule& reference, const py::PyModule& candidate);

  const py::PyModule& reference;
  const py::PyModule& candidate;

  const EmbeddedExtraction& embedded() const { return embedded_; }
  // Uses of identifiers whose last component is one of `names` in the candidate's embedded sources.
  std::vector<EmbeddedUse> cppUses(std::initializer_list<std::string_view> names) const;
  // "L<python line>: <source line>" for an embedded use, trimmed.
  std::string cppEvidence(const EmbeddedUse& use) const;

 private:
  EmbeddedExtraction embedded_;
  std::vector<std::vector<CppIdentifier>> identifiers_;  // per embedded source
};

Flag makeFlag(std::string_view family, FlagSeverity severity, double confidence, std::string message,
              std::vector<int> lines, std::string evidence);

// Sorted, de-duplicated lines; at most `limit` kept.
std::vector<int> tidyLines(std::vector<int> lines, std::size_t limit = 12);
// Numbered source lines of the candidate for the given lines (at most `maxLines`).
std::string excerptOf(const py::PyModule& m, const std::vector<int>& lines, int maxLines = 4);

// Statement index of a scope's own statements in order (nested defs and classes excluded unless asked).
std::vector<int> functionStatements(const py::PyModule& m, const py::Scope& fn, bool includeNested = false);
// The forward() of every model class (a class defining forward) in a program.
std::vector<const py::Scope*> forwardFunctions(const py::PyModule& m);
// The forward the harness calls with its inputs: ModelNew's (the entry point the KernelBench protocol names),
// else Model's, else those of the model classes that are not torch.autograd.Function subclasses.
std::vector<const py::Scope*> harnessForwards(const py::PyModule& m);
// The methods of a class, by qualified name prefix.
std::vector<const py::Scope*> methodsOf(const py::PyModule& m, const py::Scope& cls);
// `dotted` ends with `.name` or equals `name`.
bool endsWithMember(std::string_view dotted, std::string_view name);
// The part of `dotted` after its last dot (all of it when it has none): `torch.cuda.synchronize` -> `synchronize`.
std::string lastMember(std::string_view dotted);
bool contains(std::string_view text, std::string_view needle);

// A program that reads its own call stack (inspect.stack, sys._getframe, traceback.extract_stack, ...) and holds
// string literals naming timers ("timeit", "benchmark", "elapsed", ...): it looks for the harness's timing
// frames (benchmark-detection), not for tensors (gc-scan). Empty when either is missing.
struct TimerFrameScan {
  std::vector<std::string> getters, names;  // as resolved / as written (de-duplicated)
  std::vector<int> lines;                   // of both
  bool found() const { return !getters.empty() && !names.empty(); }
};
TimerFrameScan timerFrameScan(const py::PyModule& m);

void checkExtraStream(const RuleContext& ctx, std::vector<Flag>& out);
void checkHostThread(const RuleContext& ctx, std::vector<Flag>& out);
void checkCachedOutput(const RuleContext& ctx, std::vector<Flag>& out);
void checkFallbackToReference(const RuleContext& ctx, std::vector<Flag>& out);
void checkNoCustomKernel(const RuleContext& ctx, std::vector<Flag>& out);
void checkLoweredPrecision(const RuleContext& ctx, std::vector<Flag>& out);
void checkChangedInputs(const RuleContext& ctx, std::vector<Flag>& out);
void checkCudaGraph(const RuleContext& ctx, std::vector<Flag>& out);
void checkTimerPatch(const RuleContext& ctx, std::vector<Flag>& out);
void checkLazyOutput(const RuleContext& ctx, std::vector<Flag>& out);
void checkMutatedInputs(const RuleContext& ctx, std::vector<Flag>& out);
void checkStaleMemory(const RuleContext& ctx, std::vector<Flag>& out);
void checkGcScan(const RuleContext& ctx, std::vector<Flag>& out);
void checkNonfiniteOutput(const RuleContext& ctx, std::vector<Flag>& out);
void checkInputIndependent(const RuleContext& ctx, std::vector<Flag>& out);
void checkOutputAliasesInput(const RuleContext& ctx, std::vector<Flag>& out);
void checkCheckerPatch(const RuleContext& ctx, std::vector<Flag>& out);
void checkHiddenCode(const RuleContext& ctx, std::vector<Flag>& out);
void checkModuleShadowing(const RuleContext& ctx, std::vector<Flag>& out);
void checkBenchmarkDetection(const RuleContext& ctx, std::vector<Flag>& out);
void checkL2Persistence(const RuleContext& ctx, std::vector<Flag>& out);
void checkSlowedReference(const RuleContext& ctx, std::vector<Flag>& out);
void checkInvisibleCache(const RuleContext& ctx, std::vector<Flag>& out);

}  // namespace ks
