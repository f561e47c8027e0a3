#pragma once
// The one rule for a task key a person typed: every kscope command that takes --task (run, check,
// check --compile, batch, report) finds its task here, so each takes the same spellings and says the same
// thing when there is no such task.
#include <string>
#include <string_view>

#include "core/model/run_file.h"

namespace ks {

struct TaskLookup {
  const Task* task = nullptr;
  // When `task` is null, why, for a person: "no task L1/121 in h100.jsonl; did you mean L1/12 or L1/21?", or
  // the keys a tail is ambiguous between.
  std::string error;
};

// `typed` may be a key as Task::key() writes it ("L1/12", "LayerNorm", "h100_F32F16F16F32/64x64x64"), a
// KernelBench key without its L or with a small one ("1/12", "l1/12"), or the tail after a '/' of exactly
// one named key ("64x64x64": RunFile::findTask). Blanks around it are ignored. When nothing matches, the
// error offers the closest keys (core/model/closest_names.h), a named key also by its tail. `file` names
// the input in the error (the path as the user gave it); empty: run.path.
TaskLookup lookUpTask(const RunFile& run, std::string_view typed, std::string_view file = {});

}  // namespace ks
