#pragma once
// A reference and a candidate ready to be measured, with the inputs to give them: made from a Python task
// (python_task.h) or a native one (native_task.h), consumed by measurement.h.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/extension_builds.h"
#include "core/engine/model_args.h"
#include "core/engine/program_module.h"
#include "core/engine/torch_settings.h"

namespace ks::engine {

struct ModelUnderTest {
  std::string role;           // "reference" | "candidate"
  pybind11::object callable;  // an nn.Module or a function, called with the inputs
  // The torch settings as they were right after this model was constructed (Python tasks): restored before
  // each of its calls (enter()), so what one program switches on never applies to the other's calls.
  std::shared_ptr<const TorchSettings> settings;

  void enter() const {
    if (settings) settings->restorePerModel();
  }
};

struct ModelPair {
  ModelUnderTest reference, candidate;
  // What correctness compares the candidate with, when it is not the timed reference (a GEMM task checks
  // against a float32 product, gemm_task.h); its calls stand in for the reference's in the correctness
  // phase only.
  std::optional<ModelUnderTest> checkReference;
  // A fresh set of inputs on the device, generated with torch.manual_seed(seed).
  std::function<Outcome<ModelArgs>(std::int64_t seed)> inputs;
  std::vector<ProgramFile> programs;  // to locate traceback frames
  const ExtensionBuilds* builds =
      nullptr;                         // to tell failed builds (load_inline in forward) from other errors
  std::vector<ProgramModule> modules;  // kept alive (and in sys.modules) while the pair is used
  // Python tasks: the reference's get_init_inputs and the candidate program's own get_inputs /
  // get_init_inputs (null handles where it does not define them, and for native tasks), for comparing the
  // problems they define.
  pybind11::object referenceGetInitInputs, candidateGetInputs, candidateGetInitInputs;
};

// Makes `pair.inputs` keep the inputs it made per seed (up to `budgetBytes` of tensors) and hand out clones of
// them: a request asks for the same seed from correctness, the probes, timing and profile, and a
// KernelBench get_inputs() draws its tensors on the CPU (0.1 s for a 4096 x 4096 pair, seconds for a 3D
// volume). Every caller still gets tensors of its own; the seed is set again on a hit.
void memoizeInputs(ModelPair& pair, std::size_t budgetBytes);

// torch.manual_seed(seed): seeds the CPU and every CUDA generator.
void manualSeed(std::int64_t seed);

// A Python exception of a model call or of a program's function, as the protocol reports it.
protocol::ErrorInfo pairError(const ModelPair& pair, pybind11::error_already_set& error,
                              protocol::ErrorKind kind);

}  // namespace ks::engine
