#pragma once
// kscope check FILE --compile [--arch sm_90a] [--repair] [--json]: the CUDA/C++ that each candidate embeds
// for load_inline, compiled with nvcc alone (core/nvcc/python_sources_build.h): no GPU, no torch
// architecture detection, nothing loaded or run. Errors are printed on the program's Python lines, with each
// failure's cause (core/repair/build_cause.h) and ptxas -v resources per kernel. Keys: docs/cli.md.
#include <string>

namespace ks::cli {

struct CompileCheckOptions {
  std::string file;
  std::string task;                // "L1/12"; empty: every task
  std::string arch;                // nvcc -arch; empty: this machine's GPU, else sm_90a
  std::string python = "python3";  // asked for torch's include folders (then /usr/bin/python3)
  bool repair = false;             // compile the repaired program (and list the repairs)
  bool json = false;
};

// Returns the exit code: 0 every program compiled, 1 some did not, 2 nothing could be compiled.
int runCompileCheck(const CompileCheckOptions& o);

}  // namespace ks::cli
