#pragma once
// A KernelBench task: the reference program (Model, get_inputs, get_init_inputs) and the candidate program
// (ModelNew), each executed in a fresh module. Following KernelBench, both models are constructed from the
// reference's get_init_inputs() under torch.manual_seed(seed) (so their weights match) and moved to the
// device; inputs always come from the reference's get_inputs(), never from the candidate's. The reference
// program is loaded and its model constructed before the candidate program is loaded, so the torch settings
// each model is called under are the ones its own program left (ModelUnderTest::settings).
#include <c10/core/Device.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "core/engine/model_pair.h"
#include "core/protocol/request.h"

namespace ks::engine {

struct TaskContext {
  c10::Device device = c10::Device(c10::kCPU);
  std::int64_t seed = 42;
  std::filesystem::path scratch;
  ExtensionBuilds* builds = nullptr;
  // Called after each model is constructed ("reference", then "candidate"), with the request's programs.
  std::function<void(const std::string& role, const std::vector<ProgramFile>& programs)> constructed;
  // Called once the reference model is constructed and before the candidate's program is imported, with the
  // reference and the inputs of a seed (Python tasks).
  std::function<void(const ModelUnderTest& reference,
                     const std::function<Outcome<ModelArgs>(std::int64_t seed)>& inputs)>
      referenceReady;
};

Outcome<ModelPair> preparePythonTask(const protocol::TaskSpec& task, const protocol::CandidateSpec& candidate,
                                     const TaskContext& context);

// The candidate program alone, executed (its load_inline builds run): the `build` op for Python candidates.
Outcome<ProgramModule> loadCandidateProgram(const protocol::CandidateSpec& candidate,
                                            const TaskContext& context);

}  // namespace ks::engine
