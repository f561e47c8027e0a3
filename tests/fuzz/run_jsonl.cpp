// Fuzz target: the KernelScope run-format reader (readRunFile) on a .kscope.jsonl file holding the input's
// bytes; what it loads is written back and read again, which must load without errors (run_format.h:
// read(write(x)) == x).
#include <cstdlib>
#include <sstream>

#include "core/formats/run_format.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = ks::fuzz::writeFile("run.kscope.jsonl", ks::fuzz::bytes(data, size));
  const ks::RunFile run = ks::readRunFile(path);
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
