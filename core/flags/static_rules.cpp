#include "core/flags/static_rules.h"

#include <algorithm>

#include "core/flags/flag_families.h"
#include "core/flags/hidden_code.h"
#include "core/flags/rule_context.h"

namespace ks {

namespace {

void runRules(const RuleContext& ctx, std::vector<Flag>& flags) {
  checkExtraStream(ctx, flags);
  checkHostThread(ctx, flags);
  checkCachedOutput(ctx, flags);
  checkFallbackToReference(ctx, flags);
  checkNoCustomKernel(ctx, flags);
  checkLoweredPrecision(ctx, flags);
  checkChangedInputs(ctx, flags);
  checkCudaGraph(ctx, flags);
  checkTimerPatch(ctx, flags);
  checkLazyOutput(ctx, flags);
  checkMutatedInputs(ctx, flags);
  checkStaleMemory(ctx, flags);
  checkGcScan(ctx, flags);
  checkNonfiniteOutput(ctx, flags);
  checkInputIndependent(ctx, flags);
  checkOutputAliasesInput(ctx, flags);
  checkCheckerPatch(ctx, flags);
  checkHiddenCode(ctx, flags);
  checkModuleShadowing(ctx, flags);
  checkBenchmarkDetection(ctx, flags);
  checkL2Persistence(ctx, flags);
  checkSlowedReference(ctx, flags);
  checkInvisibleCache(ctx, flags);
}

int countLines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')) + 1; }

// hidden-code: the payloads that decode to text are appended to the program and the rules run again; a flag
// of a family the plain program did not raise, with evidence in the appended text, is kept, its lines moved
// to the line each payload was decoded from.
void decodedPayloadFlags(const py::PyModule& reference, const std::string& candidateProgram,
                         const py::PyModule& candidate, const RuleContext& ctx, std::vector<Flag>& flags) {
  const HiddenCodeFindings hidden = findHiddenCode(candidate, ctx.embedded());
  if (hidden.decoded.empty()) return;
  std::string spliced = candidateProgram;
  if (!spliced.ends_with("\n")) spliced += "\n";
  struct Range {
    int first, last, line;
  };
  std::vector<Range> ranges;
  for (const DecodedPayload& p : hidden.decoded) {
    const int first = countLines(spliced);
    spliced += p.text;
    if (!spliced.ends_with("\n")) spliced += "\n";
    ranges.push_back({first, countLines(spliced) - 1, p.line});
  }
  const int plainLines = countLines(candidateProgram);
  const py::PyModule splicedModule = py::PyModule::parse(spliced);
  const RuleContext splicedCtx(reference, splicedModule);
  std::vector<Flag> again;
  runRules(splicedCtx, again);
  for (Flag& f : again) {
    if (std::any_of(flags.begin(), flags.end(), [&](const Flag& g) { return g.family == f.family; })) continue;
    std::vector<int> mapped, payloadLines;
    for (const int l : f.lines) {
      if (l <= plainLines) {
        mapped.push_back(l);
        continue;
      }
      for (const Range& r : ranges)
        if (l >= r.first && l <= r.last) payloadLines.push_back(r.line);
    }
    if (payloadLines.empty()) continue;  // the evidence is all in the plain program
    mapped.insert(mapped.end(), payloadLines.begin(), payloadLines.end());
    f.lines = tidyLines(mapped);
    f.message = "In code decoded from line " + std::to_string(payloadLines.front()) + ": " + f.message;
    flags.push_back(std::move(f));
  }
}

}  // namespace

std::vector<Flag> checkStatic(const std::string& referenceProgram, const std::string& candidateProgram) {
  const py::PyModule reference = py::PyModule::parse(referenceProgram);
  const py::PyModule candidate = py::PyModule::parse(candidateProgram);
  const RuleContext ctx(reference, candidate);
  std::vector<Flag> flags;
  runRules(ctx, flags);
  decodedPayloadFlags(reference, candidateProgram, candidate, ctx, flags);
  // Catalog order, then by first line: stable for the GUI and the CLI.
  auto rank = [](const Flag& f) {
    const auto& all = flagFamilies();
    return std::find_if(all.begin(), all.end(), [&](const FlagFamily& x) { return x.id == f.family; }) -
           all.begin();
  };
  std::stable_sort(flags.begin(), flags.end(), [&](const Flag& a, const Flag& b) {
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    return (a.lines.empty() ? 0 : a.lines.front()) < (b.lines.empty() ? 0 : b.lines.front());
  });
  return flags;
}

}  // namespace ks
