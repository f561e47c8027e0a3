#include "core/engine/python_task.h"

#include <memory>
#include <optional>

namespace py = pybind11;

namespace ks::engine {
namespace {

protocol::ErrorInfo loadError(const std::string& program, std::string message) {
  protocol::ErrorInfo e;
  e.kind = protocol::ErrorKind::Load;
  e.program = program;
  e.phase = "load";
  e.message = std::move(message);
  return e;
}

// `cls(*init)` constructed under torch.manual_seed(seed), moved to the device when it is an nn.Module.
py::object construct(const py::object& cls, const ModelArgs& init, std::int64_t seed,
                     const c10::Device& device) {
  manualSeed(seed);
  py::object model = cls(*pythonArgs(cloneArgs(init)));
  if (py::isinstance(model, py::module_::import("torch.nn").attr("Module")))
    model = model.attr("to")(device.str());
  return model;
}

}  // namespace

Outcome<ModelPair> preparePythonTask(const protocol::TaskSpec& task, const protocol::CandidateSpec& candidate,
                                     const TaskContext& context) {
  ModelPair pair;
  pair.programs = {ProgramModule::fileFor("reference", context.scratch),
                   ProgramModule::fileFor("candidate", context.scratch)};
  pair.builds = context.builds;
  pair.modules.reserve(2);
  Outcome<ProgramModule> refModule =
      ProgramModule::load("reference", task.reference, context.scratch, pair.programs, *context.builds);
  if (auto* e = failed(refModule)) return *e;
  const ProgramModule& ref = pair.modules.emplace_back(std::move(std::get<ProgramModule>(refModule)));
  Outcome<py::object> model = ref.global("Model"), getInputs = ref.global("get_inputs"),
                      getInitInputs = ref.global("get_init_inputs");
  for (const auto* o : {&model, &getInputs, &getInitInputs})
    if (auto* e = failed(*o)) return *e;
  pair.referenceGetInitInputs = std::get<py::object>(getInitInputs);

  // Constructs `role`'s model from `cls`, snapshots the settings it leaves and reports it constructed.
  auto constructModel = [&](const char* role, const py::object& cls, const ModelArgs& init,
                            ModelUnderTest& into) -> std::optional<protocol::ErrorInfo> {
    try {
      into = {role, construct(cls, init, context.seed, context.device),
              std::make_shared<const TorchSettings>(TorchSettings::read())};
      if (context.constructed) context.constructed(role, pair.programs);
      return std::nullopt;
    } catch (py::error_already_set& e) {
      protocol::ErrorInfo info = pairError(pair, e, protocol::ErrorKind::Load);
      if (info.program.empty()) info.program = role;
      info.phase = "load";
      return info;
    }
  };

  ModelArgs initArgs;
  try {
    manualSeed(context.seed);
    auto init = argsFromPython(pair.referenceGetInitInputs(), "get_init_inputs()");
    if (auto* why = std::get_if<std::string>(&init)) return loadError("reference", *why);
    initArgs = argsToDevice(std::get<ModelArgs>(init), context.device);
  } catch (py::error_already_set& e) {
    protocol::ErrorInfo info = pairError(pair, e, protocol::ErrorKind::Load);
    if (info.program.empty()) info.program = "reference";
    info.phase = "load";
    return info;
  }
  if (auto e = constructModel("reference", std::get<py::object>(model), initArgs, pair.reference)) return *e;

  // Inputs are made under the reference's settings (the default dtype among them), whatever ran last.
  pair.inputs = [getInputs = std::get<py::object>(getInputs), device = context.device,
                 programs = pair.programs, builds = context.builds,
                 settings = pair.reference.settings](std::int64_t seed) -> Outcome<ModelArgs> {
    try {
      settings->restorePerModel();
      manualSeed(seed);
      auto args = argsFromPython(getInputs(), "get_inputs()");
      if (auto* why = std::get_if<std::string>(&args)) return loadError("reference", *why);
      return argsToDevice(std::get<ModelArgs>(args), device);
    } catch (py::error_already_set& e) {
      protocol::ErrorInfo info = builds->errorFrom(e, protocol::ErrorKind::Runtime, programs);
      if (info.program.empty()) info.program = "reference";
      return info;
    }
  };
  // Before any candidate code runs: what the reference calls and takes alone (slowed-reference).
  if (context.referenceReady) context.referenceReady(pair.reference, pair.inputs);

  Outcome<ProgramModule> candModule =
      ProgramModule::load("candidate", candidate.code, context.scratch, pair.programs, *context.builds);
  if (auto* e = failed(candModule)) return *e;
  const ProgramModule& cand = pair.modules.emplace_back(std::move(std::get<ProgramModule>(candModule)));
  Outcome<py::object> modelNew = cand.global("ModelNew");
  if (auto* e = failed(modelNew)) return *e;
  for (auto [name, into] : {std::pair{"get_inputs", &pair.candidateGetInputs},
                            std::pair{"get_init_inputs", &pair.candidateGetInitInputs}})
    if (auto fn = cand.global(name); !failed(fn)) *into = std::get<py::object>(fn);
  if (auto e = constructModel("candidate", std::get<py::object>(modelNew), initArgs, pair.candidate))
    return *e;

  return pair;
}

Outcome<ProgramModule> loadCandidateProgram(const protocol::CandidateSpec& candidate,
                                            const TaskContext& context) {
  return ProgramModule::load("candidate", candidate.code, context.scratch,
                             {ProgramModule::fileFor("candidate", context.scratch)}, *context.builds);
}

}  // namespace ks::engine
