#pragma once
// A generated program for a task, with its lineage, the model's analysis and its recorded measurements.
#include <optional>
#include <string>
#include <vector>

#include "core/model/measurement.h"
#include "core/model/program_text.h"

namespace ks {

enum class CodeLanguage { Python, Cuda };  // Python: KernelBench program (ModelNew); Cuda: native .cu

struct Candidate {
  std::string id;                    // unique within its task
  std::vector<std::string> parents;  // ids of the candidates it was derived from (lineage)
  std::optional<int> step;           // RL step / search round
  CodeLanguage language = CodeLanguage::Python;
  // The program; none when the file records no program (CUDA-L1 `null`). A run file's programs stay in the
  // file until asked for (program_text.h).
  ProgramText code;
  ProgramText analysis;  // the model's performance analysis, markdown; empty when none (read like `code`)
  std::vector<Measurement> measurements;
  int sourceLine = 0;  // 1-based line of the file it was read from (0: not from a file)

  // The recorded speedup against `baseline`, if any (the first one recorded when several modes are).
  std::optional<double> speedup(const std::string& baseline = "default") const;
  // ... in timing mode `mode` ("" matches measurements that name no mode).
  std::optional<double> speedup(const std::string& baseline, const std::string& mode) const;
  // The last measurement against `baseline` that KernelScope made (origin "measured"), which a run file may
  // carry from an earlier run (`kscope merge --run`, the case study's measured.json); null when none. What
  // the views show as measured when the results store has no re-run of the program.
  const Measurement* lastMeasured(const std::string& baseline = "default") const;
};

}  // namespace ks
