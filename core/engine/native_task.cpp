#include "core/engine/native_task.h"

#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <dlfcn.h>

#include "core/engine/phase_deadlines.h"
#include "core/nvcc/cutlass_headers.h"
#include "core/nvcc/gpu_arch.h"
#include "core/nvcc/native_build.h"
#include "core/nvcc/native_shim.h"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace ks::engine {
namespace {

constexpr char kKernelFile[] = "kernel.cu";  // what diagnostics call the candidate's .cu

using ShimInt = int (*)();

std::optional<at::ScalarType> scalarType(const std::string& name) {
  static const std::pair<const char*, at::ScalarType> kNames[] = {
      {"float32", at::kFloat}, {"float", at::kFloat}, {"float64", at::kDouble},    {"double", at::kDouble},
      {"float16", at::kHalf},  {"half", at::kHalf},   {"bfloat16", at::kBFloat16}, {"int64", at::kLong},
      {"long", at::kLong},     {"int32", at::kInt},   {"int", at::kInt},           {"int16", at::kShort},
      {"int8", at::kChar},     {"uint8", at::kByte},  {"bool", at::kBool}};
  for (const auto& [n, t] : kNames)
    if (name == n) return t;
  return std::nullopt;
}

protocol::ErrorInfo error(protocol::ErrorKind kind, const std::string& program, std::string message) {
  protocol::ErrorInfo e;
  e.kind = kind;
  e.program = program;
  e.message = std::move(message);
  return e;
}

nvcc::BuildOptions torchBuildOptions(const fs::path& scratch, const fs::path& cacheRoot, const std::string& arch) {
  py::module_ torch = py::module_::import("torch");
  py::module_ ext = py::module_::import("torch.utils.cpp_extension");
  nvcc::BuildOptions o;
  for (py::handle p : ext.attr("include_paths")()) o.includeDirs.emplace_back(py::str(p).cast<std::string>());
  o.includeDirs.emplace_back(
      py::module_::import("sysconfig").attr("get_paths")()["include"].cast<std::string>());
  for (py::handle p : ext.attr("library_paths")())
    o.linkFlags.push_back("-L" + py::str(p).cast<std::string>());
  o.linkFlags.insert(o.linkFlags.end(), {"-lc10", "-ltorch_cpu", "-ltorch"});
  if (!torch.attr("version").attr("cuda").is_none())
    o.linkFlags.insert(o.linkFlags.end(), {"-lc10_cuda", "-ltorch_cuda"});
  o.defines.push_back("_GLIBCXX_USE_CXX11_ABI=" +
                      std::to_string(torch.attr("_C").attr("_GLIBCXX_USE_CXX11_ABI").cast<bool>() ? 1 : 0));
  if (torch.attr("cuda").attr("is_available")().cast<bool>()) {
    auto [major, minor] = torch.attr("cuda").attr("get_device_capability")().cast<std::pair<int, int>>();
    o.arch = nvcc::nativeBuildArch(major, minor);
  }
  if (!arch.empty()) o.arch = arch;
  o.scratchDir = scratch / "native";
  o.cacheDir = cacheRoot;
  o.cacheSalt = py::str(torch.attr("__version__")).cast<std::string>();
  o.deadlineSeconds = kBuildDeadlineS;
  return o;
}

protocol::Diagnostic toProtocol(const nvcc::Diagnostic& d) {
  return {d.file.empty() ? d.tool : d.file, d.line,    d.column,
          nvcc::severityName(d.severity),  d.message, std::nullopt};
}

bool isIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

}  // namespace

Outcome<NativeBuild> buildNativeCandidate(const protocol::TaskSpec& task,
                                          const protocol::CandidateSpec& candidate, const fs::path& scratch,
                                          const fs::path& cacheRoot, const std::string& arch,
                                          PhaseReporter& reporter) {
  const bool cutlass = nvcc::includesCutlass(candidate.code);
  const double deadline = cutlass ? kCutlassBuildDeadlineS : kBuildDeadlineS;
  reporter.enter(protocol::Phase::Build, deadline);
  nvcc::BuildOptions options = torchBuildOptions(scratch, cacheRoot, arch);
  options.deadlineSeconds = deadline;
  if (cutlass) {
    const nvcc::CutlassHeaders headers = nvcc::findCutlassHeadersFromEnvironment();
    if (!headers.found()) {
      protocol::ErrorInfo e = error(protocol::ErrorKind::Build, "candidate", headers.error);
      e.phase = "build";
      return e;
    }
    nvcc::addCutlassToBuild(options, headers);
  }
  nvcc::NativeKernel kernel{candidate.code, "kernel.cu", candidate.entry, static_cast<int>(task.inputs.size())};
  if (task.gemm) kernel.convention = nvcc::EntryConvention::GemmOut;
  const nvcc::BuildResult result = nvcc::buildNativeLibrary(kernel, options);
  NativeBuild out;
  out.record.name = candidate.entry;
  out.record.program = "candidate";
  out.record.ok = result.ok;
  out.record.seconds = result.seconds;
  out.record.cacheHit = result.cacheHit;
  out.record.flags = result.flags;
  out.record.directory = result.library.parent_path().string();
  for (const auto& d : result.diagnostics) out.record.diagnostics.push_back(toProtocol(d));
  for (const auto& k : result.kernels)
    out.record.kernels.push_back(
        {k.name, k.arch, k.registers, k.sharedBytes, k.stackBytes, k.spillStores, k.spillLoads});
  reporter.built(out.record);
  if (!result.ok) {
    protocol::ErrorInfo e = error(protocol::ErrorKind::Build, "candidate", result.message);
    e.phase = "build";
    e.diagnostics = out.record.diagnostics;
    for (const auto& d : result.diagnostics)
      if (d.severity == nvcc::Severity::Error && d.line > 0 && d.file == kKernelFile) {
        e.line = d.line;
        break;
      }
    return e;
  }
  out.library = result.library;
  return out;
}

Outcome<NativeShimCall> loadNativeShim(const fs::path& library, nvcc::EntryConvention convention) {
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    return error(protocol::ErrorKind::Load, "candidate", std::string("cannot load the kernel: ") + dlerror());
  auto abi = reinterpret_cast<ShimInt>(dlsym(handle, nvcc::kShimAbiVersionSymbol));
  auto kind = reinterpret_cast<ShimInt>(dlsym(handle, nvcc::kShimEntryConventionSymbol));
  auto call = reinterpret_cast<NativeShimCall>(dlsym(handle, nvcc::kShimCallSymbol));
  if (!abi || !call || !kind || abi() != nvcc::kNativeShimAbiVersion)
    return error(protocol::ErrorKind::Load, "candidate",
                 library.string() + " lacks the kscope shim (ABI " +
                     std::to_string(nvcc::kNativeShimAbiVersion) + ")");
  if (kind() != static_cast<int>(convention))
    return error(protocol::ErrorKind::Load, "candidate",
                 library.string() + " was built for another entry convention (" + std::to_string(kind()) +
                     ", expected " + std::to_string(static_cast<int>(convention)) + ")");
  return call;
}

Outcome<ModelPair> prepareNativeTask(const protocol::TaskSpec& task, const protocol::CandidateSpec& candidate,
                                     const TaskContext& context, const fs::path& library) {
  ModelPair pair;
  pair.programs = {ProgramModule::fileFor("reference", context.scratch)};
  pair.builds = context.builds;
  std::string names;
  std::vector<std::pair<std::vector<std::int64_t>, at::ScalarType>> specs;
  for (const auto& input : task.inputs) {
    if (!isIdentifier(input.name))
      return error(protocol::ErrorKind::Load, "reference",
                   "input name '" + input.name + "' is not an identifier");
    const auto type = scalarType(input.dtype);
    if (!type)
      return error(protocol::ErrorKind::Load, "reference",
                   "input '" + input.name + "' has unknown dtype '" + input.dtype + "'");
    names += (names.empty() ? "" : ", ") + input.name;
    specs.emplace_back(input.shape, *type);
  }
  const std::string program =
      "import torch\n\n\ndef reference(" + names + "):\n    return (" + task.reference + ")\n";
  Outcome<ProgramModule> module =
      ProgramModule::load("reference", program, context.scratch, pair.programs, *context.builds);
  if (auto* e = failed(module)) return *e;
  pair.modules.push_back(std::move(std::get<ProgramModule>(module)));
  Outcome<py::object> reference = pair.modules[0].global("reference");
  if (auto* e = failed(reference)) return *e;
  pair.reference = {"reference", std::get<py::object>(reference)};

  Outcome<NativeShimCall> loaded = loadNativeShim(library, nvcc::EntryConvention::Returns);
  if (auto* e = failed(loaded)) return *e;
  const NativeShimCall call = std::get<NativeShimCall>(loaded);
  pair.candidate = {"candidate", py::cpp_function(
                                     [call, entry = candidate.entry](py::args args) {
                                       std::vector<at::Tensor> inputs;
                                       for (py::handle a : args) {
                                         auto t = unwrapTensor(a);
                                         if (!t) throw py::type_error(entry + " takes tensors only");
                                         inputs.push_back(*t);
                                       }
                                       at::Tensor output;
                                       char message[4096] = {};
                                       if (call(inputs.data(), static_cast<int>(inputs.size()), &output,
                                                message, sizeof message) != nvcc::kShimCallOk)
                                         throw std::runtime_error(entry + ": " + message);
                                       return wrapTensor(output);
                                     },
                                     py::name(candidate.entry.c_str()))};

  pair.inputs = [specs, device = context.device](std::int64_t seed) -> Outcome<ModelArgs> {
    manualSeed(seed);
    ModelArgs args;
    for (const auto& [shape, type] : specs) {
      at::Tensor t;
      if (at::isFloatingType(type) || at::isComplexType(type))
        t = at::randn(shape, at::TensorOptions().dtype(at::kFloat)).to(type);
      else if (type == at::kBool)
        t = at::randint(0, 2, shape, at::TensorOptions().dtype(at::kLong)).to(type);
      else
        t = at::randint(0, 16, shape, at::TensorOptions().dtype(type));
      args.push_back({t.to(device), {}});
    }
    return args;
  };
  return pair;
}

}  // namespace ks::engine
