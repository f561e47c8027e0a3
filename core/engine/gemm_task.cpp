#include "core/engine/gemm_task.h"

#include <ATen/ops/randn.h>
#include <ATen/ops/zeros.h>

#include <cmath>

namespace py = pybind11;
namespace fs = std::filesystem;

namespace ks::engine {
namespace {

std::int64_t roundUp(std::int64_t x, std::int64_t tile) { return tile > 1 ? (x + tile - 1) / tile * tile : x; }

protocol::ErrorInfo loadError(const std::string& program, std::string message) {
  protocol::ErrorInfo e;
  e.kind = protocol::ErrorKind::Load;
  e.program = program;
  e.message = std::move(message);
  return e;
}

at::Tensor zeroPadded(const at::Tensor& t, std::int64_t rows, std::int64_t cols) {
  at::Tensor out = at::zeros({rows, cols}, t.options());
  out.narrow(0, 0, t.size(0)).narrow(1, 0, t.size(1)).copy_(t);
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

protocol::GemmRun gemmRun(const protocol::GemmSpec& spec) {
  protocol::GemmRun run{spec.m, spec.n, spec.k, spec.m, spec.n, spec.k};
  if (spec.padTo.size() == 3) {
    run.paddedM = roundUp(spec.m, spec.padTo[0]);
    run.paddedN = roundUp(spec.n, spec.padTo[1]);
    run.paddedK = roundUp(spec.k, spec.padTo[2]);
  }
  return run;
}

Tolerance gemmTolerance(std::int64_t k) {
  return {1e-2 * std::sqrt(static_cast<double>(std::max<std::int64_t>(k, 1))), 1e-2};
}

std::vector<std::string> gemmInputNames(const protocol::GemmRun& run) {
  if (run.padded()) return {"a", "b", "a_padded", "b_padded", "b_col_major_padded"};
  return {"a", "b", "b_col_major"};
}

ModelArgs gemmInputs(const protocol::GemmRun& run, const c10::Device& device, std::int64_t seed) {
  manualSeed(seed);
  // Drawn in float32 and cast, as native tasks' inputs are (native_task.h): one rule on every device.
  const auto options = at::TensorOptions().dtype(at::kFloat).device(device);
  at::Tensor a = at::randn({run.m, run.k}, options).to(at::kHalf);
  at::Tensor b = at::randn({run.k, run.n}, options).to(at::kHalf);
  ModelArgs args{{a, {}}, {b, {}}};
  if (!run.padded()) {
    args.push_back({b.t().contiguous(), {}});
    return args;
  }
  at::Tensor bPadded = zeroPadded(b, run.paddedK, run.paddedN);
  args.push_back({zeroPadded(a, run.paddedM, run.paddedK), {}});
  args.push_back({bPadded, {}});
  args.push_back({bPadded.t().contiguous(), {}});
  return args;
}

py::object gemmCandidate(NativeShimCall call, const std::string& entry, const protocol::GemmRun& run) {
  const std::size_t first = run.padded() ? 2 : 0;
  return py::cpp_function(
      [call, entry, run, first](py::args args) {
        if (args.size() != first + 3)
          throw py::type_error(entry + ": expected " + std::to_string(first + 3) + " tensors, got " +
                               std::to_string(args.size()));
        at::Tensor inputs[3];
        for (std::size_t i = 0; i < 3; ++i) {
          auto t = unwrapTensor(args[first + i]);
          if (!t) throw py::type_error(entry + " takes tensors only");
          inputs[i] = *t;
        }
        at::Tensor output;
        char message[4096] = {};
        if (call(inputs, 3, &output, message, sizeof message) != nvcc::kShimCallOk)
          throw std::runtime_error(entry + ": " + message);
        if (run.padded()) output = output.narrow(0, 0, run.m).narrow(1, 0, run.n);
        return wrapTensor(output);
      },
      py::name(entry.c_str()));
}

Outcome<ModelPair> prepareGemmTask(const protocol::TaskSpec& task, const protocol::CandidateSpec& candidate,
                                   const TaskContext& context, const fs::path& library) {
  const protocol::GemmRun run = gemmRun(*task.gemm);
  ModelPair pair;
  pair.programs = {ProgramModule::fileFor("reference", context.scratch)};
  pair.builds = context.builds;
  const std::string names = joined(gemmInputNames(run));
  const std::string program = "import torch\n\n\ndef reference(" + names + "):\n    return (" + task.reference +
                              ")\n\n\ndef check(" + names +
                              "):\n    return torch.matmul(a.float(), b.float()).to(a.dtype)\n";
  Outcome<ProgramModule> module =
      ProgramModule::load("reference", program, context.scratch, pair.programs, *context.builds);
  if (auto* e = failed(module)) return *e;
  pair.modules.push_back(std::move(std::get<ProgramModule>(module)));
  Outcome<py::object> reference = pair.modules[0].global("reference");
  if (auto* e = failed(reference)) return *e;
  Outcome<py::object> check = pair.modules[0].global("check");
  if (auto* e = failed(check)) return *e;
  pair.reference = {"reference", std::get<py::object>(reference)};
  pair.checkReference = ModelUnderTest{"reference", std::get<py::object>(check)};

  if (candidate.entry.empty()) return loadError("candidate", "a GEMM candidate needs its entry function");
  Outcome<NativeShimCall> loaded = loadNativeShim(library, nvcc::EntryConvention::GemmOut);
  if (auto* e = failed(loaded)) return *e;
  pair.candidate = {"candidate", gemmCandidate(std::get<NativeShimCall>(loaded), candidate.entry, run)};
  pair.inputs = [run, device = context.device](std::int64_t seed) -> Outcome<ModelArgs> {
    return gemmInputs(run, device, seed);
  };
  return pair;
}

}  // namespace ks::engine
