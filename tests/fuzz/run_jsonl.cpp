// Fuzz target: the KernelScope run-format reader (readRunFile) on a .kscope.jsonl file holding the input's
// bytes. The fast candidate-line scanner (run_format_scan.h) must read exactly what the JSON reader reads:
// the file is read both ways and the runs and issues compared. What it loads is written back and read
// again, which must load without errors (run_format.h: read(write(x)) == x).
#include <cstdlib>
#include <sstream>

#include "core/formats/run_format.h"
#include "tests/fuzz/scratch.h"

namespace {

bool sameMeasurement(const ks::Measurement& a, const ks::Measurement& b) {
  return a.baseline == b.baseline && a.speedup == b.speedup && a.baselineMs == b.baselineMs &&
         a.candidateMs == b.candidateMs && a.device == b.device && a.origin == b.origin && a.when == b.when &&
         a.mode == b.mode && a.outcome == b.outcome && a.error == b.error;
}

bool sameRun(const ks::RunFile& a, const ks::RunFile& b) {
  if (a.title != b.title || a.description != b.description || a.tasks.size() != b.tasks.size() ||
      a.issues.size() != b.issues.size())
    return false;
  for (std::size_t i = 0; i < a.issues.size(); ++i)
    if (a.issues[i].toString() != b.issues[i].toString()) return false;
  for (std::size_t t = 0; t < a.tasks.size(); ++t) {
    const auto& x = a.tasks[t].candidates;
    const auto& y = b.tasks[t].candidates;
    if (a.tasks[t].key() != b.tasks[t].key() || x.size() != y.size()) return false;
    for (std::size_t c = 0; c < x.size(); ++c) {
      if (x[c].id != y[c].id || x[c].parents != y[c].parents || x[c].step != y[c].step ||
          x[c].language != y[c].language || x[c].sourceLine != y[c].sourceLine ||
          x[c].code.optional() != y[c].code.optional() ||
          x[c].analysis.valueOrEmpty() != y[c].analysis.valueOrEmpty() ||
          x[c].measurements.size() != y[c].measurements.size())
        return false;
      for (std::size_t m = 0; m < x[c].measurements.size(); ++m)
        if (!sameMeasurement(x[c].measurements[m], y[c].measurements[m])) return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = ks::fuzz::writeFile("run.kscope.jsonl", ks::fuzz::bytes(data, size));
  const ks::RunFile run = ks::readRunFile(path);
  ks::LoadOptions jsonOnly;
  jsonOnly.fastCandidateLines = false;
  if (!sameRun(run, ks::readRunFile(path, jsonOnly))) std::abort();  // the scanner read a line differently
  if (run.tasks.empty()) return 0;
  std::ostringstream out;
  ks::writeRunFile(run, out);
  const auto again = ks::fuzz::writeFile("again.kscope.jsonl", out.str());
  const ks::RunFile reread = ks::readRunFile(again);
  if (reread.errorCount() != 0 || reread.tasks.size() != run.tasks.size() ||
      reread.candidateCount() != run.candidateCount())
    std::abort();  // the writer wrote what the reader rejects, or lost a task or candidate
  return 0;
}
