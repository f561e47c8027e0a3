#pragma once
// kscope check FILE --compile [--arch sm_90a] [--repair] [--json]: the CUDA/C++ that each candidate embeds
// for load_inline, compiled with nvcc alone (core/runs/program_compile.h): no GPU, no torch architecture
// detection, nothing loaded or run. Errors are printed on the program's Python lines, with each failure's
// cause (core/repair/build_cause.h) and ptxas -v resources per kernel. `kscope run` on a machine without a
// GPU prints its compile the same way. Keys: docs/cli.md.
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "core/runs/program_compile.h"

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

// One program's compile as check --compile's JSON has it: {"ok", "message", "cause" (failed only),
// "diagnostics", "kernels", "compile_seconds"}.
nlohmann::ordered_json compileJson(const runs::ProgramCompile& compiled);
// Its text, two spaces in: the cause of a failure, every error (and each warning in the program's own
// sources) with its Python line, each kernel's ptxas resources.
void printCompileDetails(std::ostream& out, const runs::ProgramCompile& compiled);

}  // namespace ks::cli
