#include "core/engine/runtime_probes.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <c10/core/GradMode.h>
#include <c10/util/Exception.h>
#include <pybind11/eval.h>
#include <torch/csrc/autograd/python_variable.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <limits>
#include <thread>

#include "core/engine/gpu_share.h"
#include "core/probes/kernel_origin.h"
#include "core/engine/memory_poison.h"
#include "core/engine/phase_deadlines.h"
#include "core/probes/probe_report.h"
#include "core/probes/probe_verdicts.h"
#include "core/probes/stream_evidence.h"
#include "core/engine/tensor_evidence.h"
#include "core/engine/timed_call.h"
#include "core/engine/trial_clock.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kCollapseConfirmRounds = 3;  // more repeat/fresh/reference calls before a time collapse counts
constexpr int kDistributions = 4;  // scaled, shifted, integer-valued, rows of mixed scale
// Model calls in the probes phase (deadline): decoy, repeat and deferred calls, confirmations, the weak task's
// shuffled reference, two calls per distribution.
constexpr int kProbeCalls = 22 + 3 * kCollapseConfirmRounds + 2 * kDistributions;
// The reference timed alone, before the candidate's program is imported: at least kAloneMinCalls calls, more
// while they fit in kAloneBudgetMs, never more than kAloneMaxCalls; one call only when the traced one took
// longer than kAloneSlowCallMs (the load phase's deadline is fixed).
constexpr int kAloneMinCalls = 3;
constexpr int kAloneMaxCalls = 10;
constexpr double kAloneBudgetMs = 500;
constexpr double kAloneSlowCallMs = 5000;
constexpr double kDeferredDelayMs = 50;  // how long deferred work gets before the output is read again
constexpr int kDeferredAttempts = 3;     // calls read at return, while none showed deferred work
constexpr double kHoldGilSwitchS = 5.0;  // Python's switch interval while the output is read at return

// Python the probes call: the decoy's calling frame, the search for a CUDA graph, the float64 reference.
constexpr const char* kProbeHelpers = R"PY(
import copy
import types


def call_with_decoy(model, args, decoy):
    return model(*args)


def holds_cuda_graph(model):
    import torch
    graph = getattr(torch.cuda, "CUDAGraph", None)
    if graph is None:
        return False
    seen, todo = set(), [model]
    while todo and len(seen) < 10000:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType, torch.Tensor)):
            continue
        seen.add(id(obj))
        if isinstance(obj, graph):
            return True
        if isinstance(obj, dict):
            todo.extend(obj.values())
        elif isinstance(obj, (list, tuple, set)):
            todo.extend(obj)
        elif hasattr(obj, "__dict__"):
            todo.extend(vars(obj).values())
    return False


def float64_model(model):
    import torch
    if isinstance(model, torch.nn.Module):
        return copy.deepcopy(model).double()
    return model


def float32_model(model):
    import torch
    if isinstance(model, torch.nn.Module):
        return copy.deepcopy(model).float()
    return model
)PY";

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

std::string typeName(const py::handle& h) {
  py::handle type = reinterpret_cast<PyObject*>(Py_TYPE(h.ptr()));
  return py::str(type.attr("__module__")).cast<std::string>() + "." +
         py::str(type.attr("__qualname__")).cast<std::string>();
}

// Every tensor of an output (nested tuples and lists), subclasses included, read without torch dispatch.
void rawTensors(const py::handle& value, std::vector<at::Tensor>& out) {
  if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
    for (py::handle item : value) rawTensors(item, out);
    return;
  }
  if (THPVariable_Check(value.ptr())) out.push_back(THPVariable_Unpack(value.ptr()));
}

// The first output element that is a torch.Tensor subclass (not nn.Parameter) or a non-tensor object
// implementing __torch_function__.
std::optional<LazyOutputEvidence> lazyElement(const py::handle& value) {
  if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
    for (py::handle item : value)
      if (auto found = lazyElement(item)) return found;
    return std::nullopt;
  }
  if (THPVariable_Check(value.ptr())) {
    if (THPVariable_CheckExact(value.ptr()) ||
        py::isinstance(value, py::module_::import("torch.nn").attr("Parameter")))
      return std::nullopt;
    const at::Tensor& t = THPVariable_Unpack(value.ptr());
    const bool storage = t.has_storage() && t.storage().data() != nullptr;
    return LazyOutputEvidence{typeName(value), true,
                              storage ? static_cast<std::int64_t>(t.storage().nbytes()) : 0, 0};
  }
  if (py::hasattr(py::type::of(value), "__torch_function__"))
    return LazyOutputEvidence{typeName(value), false, -1, 0};
  return std::nullopt;
}

std::int64_t nbytesOf(const std::vector<at::Tensor>& tensors) {
  std::int64_t n = 0;
  for (const at::Tensor& t : tensors) n += static_cast<std::int64_t>(t.numel() * t.element_size());
  return n;
}

std::vector<at::Tensor> tensorsOf(const ModelArgs& args) {
  std::vector<at::Tensor> out;
  for (const ModelArg& a : args)
    if (a.tensor.defined()) out.push_back(a.tensor);
  return out;
}

void refill(ModelArgs& into, const ModelArgs& from) {
  for (std::size_t i = 0; i < into.size() && i < from.size(); ++i)
    if (into[i].tensor.defined()) into[i].tensor.copy_(from[i].tensor);
}

// Changes one value of each floating input in place, away from the positions a fingerprint would sample
// (first, middle, last).
void perturb(ModelArgs& args) {
  for (ModelArg& a : args) {
    if (!a.tensor.defined() || !a.tensor.is_floating_point() || a.tensor.numel() < 4) continue;
    std::int64_t rest = a.tensor.numel() / 3 + 1;
    at::Tensor element = a.tensor;
    for (std::int64_t d = 0; d < a.tensor.dim(); ++d) {
      std::int64_t inner = 1;
      for (std::int64_t e = d + 1; e < a.tensor.dim(); ++e) inner *= a.tensor.size(e);
      element = element.select(0, rest / inner);
      rest %= inner;
    }
    element.add_(element.abs().add(1));
  }
}

double epsilonOf(at::ScalarType type) {
  switch (type) {
    case at::kHalf:
      return 9.765625e-4;
    case at::kBFloat16:
      return 7.8125e-3;
    case at::kDouble:
      return std::numeric_limits<double>::epsilon();
    default:
      return std::numeric_limits<float>::epsilon();
  }
}

// Runs one probe; what a model raises ends that probe with a note instead of the request.
template <class F>
void attempt(std::string& note, F&& body) {
  try {
    body();
  } catch (py::error_already_set& e) {
    note = std::string("a model raised during this probe: ") + e.what();
  } catch (const c10::Error& e) {
    note = std::string("a model failed during this probe: ") + e.what_without_backtrace();
  } catch (const std::exception& e) {
    note = std::string("a model failed during this probe: ") + e.what();
  }
}

}  // namespace

// Model calls as the probes make them: each model under its own settings, the candidate under the CPU
// allocator's junk fill, every call followed by a device-wide synchronize.
struct RuntimeProbes::Calls {
  ModelPair& pair;
  c10::Device device;
  RuntimeProbes& probes;
  bool settle = false;  // deferred work was seen: give every candidate call time to finish before reading
  std::vector<ModelArgs> held;  // inputs kept alive so that their Python ids and addresses stay taken

  // A clone of `values` whose tensors have Python ids and data pointers the candidate has never been given,
  // so a cache keyed on id() or data_ptr() cannot match it by the allocator's reuse of a freed slot.
  ModelArgs freshArgs(const ModelArgs& values) {
    constexpr int kAttempts = 8;
    for (int tries = 1;; ++tries) {
      ModelArgs args = cloneArgs(values);
      if (!probes.givenBefore(args) || tries == kAttempts) {
        probes.rememberGiven(args);
        return args;
      }
      held.push_back(std::move(args));
    }
  }

  struct Out {
    py::object object;
    std::vector<at::Tensor> tensors;  // empty when the output is not plain tensors
    std::string notTensors;           // why
    double ms = 0;
  };

  // Calls `model` (its settings already entered), the candidate under the junk fill.
  py::object invoke(const ModelUnderTest& model, const py::tuple& args) {
    std::optional<CpuJunkFill> fill;
    if (&model == &pair.candidate) fill.emplace(device);
    return model.callable(*args);
  }

  void wait() {
    {
      py::gil_scoped_release release;
      std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(kDeferredDelayMs));
    }
    synchronize(device);
  }

  Out read(py::object object, double ms, bool candidate) {
    if (candidate) {
      probes.checkClocks("during a candidate call");
      if (settle) wait();
    }
    Out out{std::move(object), {}, "", ms};
    auto tensors = outputTensors(out.object, device);
    if (auto* why = std::get_if<std::string>(&tensors))
      out.notTensors = *why;
    else
      out.tensors = std::get<std::vector<at::Tensor>>(tensors);
    return out;
  }

  Out run(const ModelUnderTest& model, const py::tuple& args) {
    model.enter();
    const auto start = Clock::now();
    py::object object = invoke(model, args);
    synchronizeDevice(device);
    const double ms = msSince(start);  // the call's own time, without a wait for the GPU share lock
    gpu_share::syncPoint();
    return read(std::move(object), ms, &model == &pair.candidate);
  }

  struct Deferred {
    Out out;  // read after the delay
    std::int64_t changedAfterReturn = 0;
    ThreadCensus atReturn;  // taken before any other Python thread could run: a worker still running shows
  };

  // A call read at return, with Python's switch interval raised so that no other Python thread runs before
  // the copy is taken, and again after a delay and a device-wide synchronize.
  Deferred deferred(const ModelUnderTest& model, const py::tuple& args) {
    py::module_ sys = py::module_::import("sys");
    const py::object interval = sys.attr("getswitchinterval")();
    model.enter();
    sys.attr("setswitchinterval")(kHoldGilSwitchS);
    py::object object;
    std::vector<at::Tensor> atReturn;
    ThreadCensus threads;
    try {
      object = invoke(model, args);
      threads = ThreadCensus::take();
      auto tensors = outputTensors(object, device);
      if (auto* t = std::get_if<std::vector<at::Tensor>>(&tensors)) atReturn = detachedCopies(*t);
    } catch (...) {
      sys.attr("setswitchinterval")(interval);
      throw;
    }
    sys.attr("setswitchinterval")(interval);
    wait();
    Deferred d{read(std::move(object), 0, &model == &pair.candidate), 0, std::move(threads)};
    if (!d.out.tensors.empty()) d.changedAfterReturn = bitwiseDifferences(atReturn, d.out.tensors);
    return d;
  }

  // The reference's output on a clone of `inputs`, as copies no Python object refers to.
  std::pair<std::vector<at::Tensor>, double> reference(const ModelArgs& inputs) {
    const ModelArgs args = cloneArgs(inputs);
    const Out out = run(pair.reference, pythonArgs(args));
    if (!out.notTensors.empty()) throw std::runtime_error("the reference's output: " + out.notTensors);
    return {detachedCopies(out.tensors), out.ms};
  }
};

RuntimeProbes::RuntimeProbes(const c10::Device& device)
    : device_(device), threadsBefore_(ThreadCensus::take()), clocks_(ClockIdentity::take()),
      torch_(TorchIdentity::take()), imports_(ImportState::take()), pool_(ThreadPoolState::take()),
      l2Before_(readPersistingL2(device)) {
  evidence_.device = device.is_cuda() ? "cuda" : "cpu";
  ThreadPoolEvidence& t = evidence_.threadPool;
  t.checked = true;
  t.defaultThreads = pool_.threads();
  // Fewer threads than one cannot be left behind: a candidate that takes every core for its own call and
  // leaves one after looks, on such a machine, like one that changed nothing.
  if (t.defaultThreads <= 1)
    t.note = "default is " + std::to_string(t.defaultThreads) + " thread; not observable";
  py::exec(kProbeHelpers, helpers_);
}

RuntimeProbes::~RuntimeProbes() {
  try {
    clocks_.restore();
    torch_.restore();
    imports_.restore();
    pool_.restore();
    restorePersistingL2(device_, l2Before_);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kscope-runner: restoring the timing functions failed: %s\n", e.what());
  }
}

void RuntimeProbes::checkClocks(const std::string& when) {
  for (const ClockReplacement& r : clocks_.replaced()) {
    ClockPatchEvidence p{r.name, r.replacement, "", 0, when, r.checker};
    for (const ProgramFile& f : programs_)
      if (f.path == r.file) {
        p.program = f.role;
        p.line = r.line;
      }
    if (p.program.empty())
      p.program = when.find("reference") != std::string::npos ? "reference" : "candidate";
    evidence_.clockPatches.push_back(std::move(p));
  }
  clocks_.restore();
  for (const TorchReplacement& r : torch_.replaced()) {
    TorchRebindEvidence t{r.name, r.replacement, "", 0, when, r.referenceCalls};
    for (const ProgramFile& f : programs_)
      if (f.path == r.file) {
        t.program = f.role;
        t.line = r.line;
      }
    if (t.program.empty()) t.program = when.find("reference") != std::string::npos ? "reference" : "candidate";
    if (std::none_of(evidence_.torchRebinds.begin(), evidence_.torchRebinds.end(),
                     [&](const TorchRebindEvidence& e) { return e.name == t.name; }))
      evidence_.torchRebinds.push_back(std::move(t));
  }
  torch_.restore();
  for (const ImportChange& c : imports_.changes())
    if (std::none_of(evidence_.importChanges.begin(), evidence_.importChanges.end(),
                     [&](const ImportChangeEvidence& e) { return e.what == c.what; }))
      evidence_.importChanges.push_back({c.what, c.shadows, when});
  imports_.restore();
  checkThreadPool(when);
}

// The thread count and the pool variables against the runner's defaults. What the reference program changed is the
// reference's own setting (it is timed with it): it becomes the baseline. What the candidate changed is
// recorded once per name and put back at once, so no later call of either model runs on it.
void RuntimeProbes::checkThreadPool(const std::string& when) {
  const ThreadPoolState now = ThreadPoolState::take();
  const std::vector<ThreadPoolChange> changes = pool_.changesIn(now);
  if (changes.empty()) return;
  if (when.find("reference") != std::string::npos) {
    pool_ = now;
    return;
  }
  std::vector<ThreadPoolChangeEvidence>& seen = evidence_.threadPool.changes;
  for (const ThreadPoolChange& c : changes)
    if (std::none_of(seen.begin(), seen.end(), [&](const ThreadPoolChangeEvidence& e) { return e.what == c.what; }))
      seen.push_back({c.what, c.before, c.after, when});
  pool_.restore();
}

void RuntimeProbes::rememberGiven(const ModelArgs& args) {
  for (const ModelArg& a : args)
    if (a.tensor.defined()) {
      // The Python object stays this tensor's (torch keeps it while C++ holds the tensor), so its id does
      // too.
      given_.insert(reinterpret_cast<std::uintptr_t>(wrapTensor(a.tensor).ptr()));
      given_.insert(reinterpret_cast<std::uintptr_t>(a.tensor.data_ptr()));
    }
}

bool RuntimeProbes::givenBefore(const ModelArgs& args) const {
  for (const ModelArg& a : args)
    if (a.tensor.defined() && (given_.count(reinterpret_cast<std::uintptr_t>(wrapTensor(a.tensor).ptr())) ||
                               given_.count(reinterpret_cast<std::uintptr_t>(a.tensor.data_ptr()))))
      return true;
  return false;
}

void RuntimeProbes::watchWrites(const std::vector<std::filesystem::path>& writable,
                                const std::vector<ProgramFile>& programs) {
  writes_ = std::make_unique<WriteWatch>(writable, programs);
}

void RuntimeProbes::constructed(const std::string& role, const std::vector<ProgramFile>& programs) {
  programs_ = programs;
  checkClocks("after the " + role + " program loaded");
}

void RuntimeProbes::referenceCalled(const ModelArgs& original, const ModelArgs& args,
                                    const std::vector<at::Tensor>& outputs) {
  if (evidence_.inputBytes == 0 && evidence_.outputBytes == 0) {
    evidence_.inputBytes = nbytesOf(tensorsOf(original));
    evidence_.outputBytes = nbytesOf(outputs);
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].tensor.defined()) continue;
    const int index = static_cast<int>(i);
    if (anySharesStorage(outputs, {args[i].tensor})) referenceAliases_.push_back(index);
    if (bitwiseDifferences(original[i].tensor, args[i].tensor) > 0) referenceMutations_.push_back(index);
  }
}

void RuntimeProbes::candidateCalled(std::int64_t seed, const ModelArgs& original, const ModelArgs& args,
                                    const py::handle& output, const std::vector<at::Tensor>& reference,
                                    std::optional<double> atol, std::optional<double> rtol) {
  checkClocks("during a candidate call");
  rememberGiven(args);
  if (checkedReference_.empty()) {  // the first correctness seed: the inputs the timing loop uses
    atol_ = atol;
    rtol_ = rtol;
    checkedReference_ = reference;
    auto plainOut = outputTensors(output, device_);
    if (auto* t = std::get_if<std::vector<at::Tensor>>(&plainOut)) checkedCandidate_ = detachedCopies(*t);
  }
  std::vector<at::Tensor> raw;
  rawTensors(output, raw);
  if (!evidence_.poisoned) {
    std::int64_t poisoned = 0;
    for (const at::Tensor& t : raw) poisoned += poisonedValues(t);
    if (poisoned > 0) evidence_.poisoned = {seed, poisoned, numelOf(raw), poisonPattern(device_)};
  }
  if (!evidence_.lazy)
    if (auto lazy = lazyElement(output)) {
      lazy->neededBytes = nbytesOf(reference);
      evidence_.lazy = std::move(lazy);
    }

  std::vector<bool> mutated(args.size(), false);
  for (std::size_t i = 0; i < args.size() && i < original.size(); ++i) {
    if (!args[i].tensor.defined()) continue;
    const Change c = changeBetween(original[i].tensor, args[i].tensor,
                                   toleranceFor(original[i].tensor.scalar_type(), atol, rtol));
    if (c.changed == 0) continue;
    mutated[i] = true;
    const int index = static_cast<int>(i);
    if (std::none_of(evidence_.mutations.begin(), evidence_.mutations.end(),
                     [&](const MutationEvidence& m) { return m.input == index; }))
      evidence_.mutations.push_back(
          {index, seed, c.changed, original[i].tensor.numel(), c.maxAbs, c.beyondTolerance, false});
  }

  auto plain = outputTensors(output, device_);
  if (std::holds_alternative<std::string>(plain)) return;
  const auto& tensors = std::get<std::vector<at::Tensor>>(plain);
  if (!evidence_.nonfinite) {
    std::int64_t count = 0;
    for (std::size_t i = 0; i < tensors.size() && i < reference.size(); ++i)
      count += nonfiniteWhereFinite(reference[i], tensors[i]);
    if (count > 0) evidence_.nonfinite = NonfiniteEvidence{seed, count, numelOf(tensors)};
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    const int index = static_cast<int>(i);
    if (!args[i].tensor.defined() || !anySharesStorage(tensors, {args[i].tensor})) continue;
    if (std::none_of(evidence_.aliases.begin(), evidence_.aliases.end(),
                     [&](const AliasEvidence& a) { return a.input == index; }))
      evidence_.aliases.push_back({index, seed, mutated[i], false});
  }
}

namespace {

// Two tensors of one shape and dtype whose values differ, drawn alike: mean and standard deviation agree
// within a tenth of the spread, and so do the extremes within a quarter of the range. A program that draws
// `torch.randn(..., device="cuda")` gets other values than the reference's CPU draw under the same seed (another
// generator), not another problem; `torch.rand` for `torch.randn`, a scaled or zeroed input does differ.
// Fewer than 100 values say too little: they count as different.
bool drawnAlike(const at::Tensor& reference, const at::Tensor& candidate) {
  if (reference.numel() < 100 || reference.is_complex()) return false;
  const at::Tensor a = reference.cpu().to(at::kDouble), b = candidate.cpu().to(at::kDouble);
  const double meanA = a.mean().item<double>(), meanB = b.mean().item<double>();
  const double sdA = a.std().item<double>(), sdB = b.std().item<double>();
  const double spread = std::max(sdA, sdB);
  if (!std::isfinite(spread) || spread == 0) return false;
  const double minA = a.min().item<double>(), minB = b.min().item<double>();
  const double maxA = a.max().item<double>(), maxB = b.max().item<double>();
  const double range = std::max(maxA - minA, maxB - minB);
  return std::abs(sdA - sdB) <= 0.1 * spread && std::abs(meanA - meanB) <= 0.1 * spread &&
         std::abs(minA - minB) <= 0.25 * range && std::abs(maxA - maxB) <= 0.25 * range;
}

}  // namespace

void RuntimeProbes::compareProgramInputs(ModelPair& pair, std::int64_t seed) {
  InputsEvidence& in = evidence_.inputs;
  if (!pair.referenceGetInitInputs) {
    in.note = "not a Python task";
    return;
  }
  if (!pair.candidateGetInputs && !pair.candidateGetInitInputs) {
    in.note = "the candidate program defines neither get_inputs nor get_init_inputs";
    return;
  }
  auto lineOf = [](const py::object& fn) {
    return py::hasattr(fn, "__code__") ? fn.attr("__code__").attr("co_firstlineno").cast<int>() : 0;
  };
  auto compare = [&](const std::string& what, const ModelArgs& ref, const ModelArgs& cand) {
    const std::size_t before = in.differences.size();
    if (ref.size() != cand.size()) {
      in.differences.push_back(what + " returns " + std::to_string(cand.size()) +
                               " values, the reference's " + std::to_string(ref.size()));
      return before != in.differences.size();
    }
    for (std::size_t i = 0; i < ref.size(); ++i) {
      const std::string at = what + "[" + std::to_string(i) + "]: ";
      const at::Tensor& r = ref[i].tensor;
      const at::Tensor& c = cand[i].tensor;
      if (r.defined() != c.defined()) {
        in.differences.push_back(at + (c.defined() ? "a tensor" : "not a tensor") +
                                 " where the reference's is " + (r.defined() ? "one" : "not"));
      } else if (r.defined()) {
        if (r.sizes() != c.sizes() || r.scalar_type() != c.scalar_type())
          in.differences.push_back(at + describeTensor(c.cpu()) + ", the reference's " +
                                   describeTensor(r.cpu()));
        else if (bitwiseDifferences(r.cpu(), c.cpu()) > 0 && !drawnAlike(r, c))
          in.differences.push_back(at + "the same shape and dtype with values drawn otherwise");
      } else if (!ref[i].object.equal(cand[i].object)) {
        in.differences.push_back(at + py::repr(cand[i].object).cast<std::string>() + ", the reference's " +
                                 py::repr(ref[i].object).cast<std::string>());
      }
    }
    return before != in.differences.size();
  };
  attempt(in.note, [&] {
    auto fromPython = [&](const py::object& fn, const char* what) {
      manualSeed(seed);
      auto args = argsFromPython(fn(), what);
      if (auto* why = std::get_if<std::string>(&args)) throw std::runtime_error(*why);
      return std::get<ModelArgs>(args);
    };
    if (pair.candidateGetInputs) {
      Outcome<ModelArgs> ref = pair.inputs(seed);
      if (auto* e = failed(ref)) throw std::runtime_error(e->message);
      if (compare("get_inputs()", std::get<ModelArgs>(ref),
                  fromPython(pair.candidateGetInputs, "get_inputs()")))
        in.getInputsLine = lineOf(pair.candidateGetInputs);
    }
    if (pair.candidateGetInitInputs &&
        compare("get_init_inputs()", fromPython(pair.referenceGetInitInputs, "get_init_inputs()"),
                fromPython(pair.candidateGetInitInputs, "get_init_inputs()")))
      in.getInitInputsLine = lineOf(pair.candidateGetInitInputs);
    in.compared = true;
  });
}

// NaN or infinite values where the reference's output on the same inputs is finite, in a call of the probes
// phase: the checked calls may have been clean while these are not (a candidate that answers NaN after its
// first calls), and every probe that compares these outputs must not read the NaN as agreement.
void RuntimeProbes::probeCallNonfinite(std::int64_t seed, const std::vector<at::Tensor>& reference,
                                       const std::vector<at::Tensor>& candidate) {
  if (evidence_.nonfinite) return;
  std::int64_t count = 0;
  for (std::size_t i = 0; i < candidate.size() && i < reference.size(); ++i)
    count += nonfiniteWhereFinite(reference[i], candidate[i]);
  if (count > 0) evidence_.nonfinite = NonfiniteEvidence{seed, count, numelOf(candidate), true};
}

void RuntimeProbes::decoyProbe(Calls& calls, const ModelArgs& inputs) {
  DecoyEvidence& d = evidence_.decoy;
  attempt(d.note, [&] {
    const std::vector<at::Tensor> reference = calls.reference(inputs).first;
    if (reference.size() != 1 || !reference[0].is_floating_point() || reference[0].dim() == 0 ||
        reference[0].size(0) < 2) {
      d.note = "needs one floating-point output with at least two rows";
      return;
    }
    at::Tensor decoy = reference[0].clone();
    decoy.narrow(0, 1, decoy.size(0) - 1).add_(1);
    const ModelArgs args = calls.freshArgs(inputs);
    const py::tuple callArgs = pythonArgs(args);
    py::module_::import("gc").attr("collect")();  // the decoy is then the youngest tensor the collector has
    const py::object decoyObject = wrapTensor(decoy);
    calls.pair.candidate.enter();
    py::object output;
    {
      const CpuJunkFill fill(calls.device);
      output = helpers_["call_with_decoy"](calls.pair.candidate.callable, callArgs, decoyObject);
    }
    synchronize(calls.device);
    const Calls::Out out = calls.read(std::move(output), 0, true);
    if (out.tensors.size() != 1) {
      d.note = out.notTensors.empty() ? "the candidate's output is not one tensor" : out.notTensors;
      return;
    }
    d.ran = true;
    d.sharesStorage = sharesStorage(out.tensors[0], decoy);
    d.numel = decoy.numel();
    d.equalToDecoy = d.numel - bitwiseDifferences(out.tensors[0], decoy);
  });
}

void RuntimeProbes::repeatProbe(Calls& calls, const ModelArgs& first, const ModelArgs& second) {
  RepeatEvidence& r = evidence_.repeat;
  DeferredEvidence& d = evidence_.deferred;
  attempt(r.note, [&] {
    const ModelUnderTest& cand = calls.pair.candidate;
    const auto [r1, r1Ms] = calls.reference(first);
    const auto [r2, r2Ms] = calls.reference(second);
    r.referenceMs = std::min(r1Ms, r2Ms);
    r.referencesDiffer = !bitwiseEqual(r1, r2);
    firstReferenceOutput_ = r1;

    // The first call, read at return and again after a delay; up to two more such calls while nothing
    // changed after return (work handed to threads races with the read at return).
    ModelArgs p = calls.freshArgs(first);
    const py::tuple pArgs = pythonArgs(p);
    const Calls::Deferred c1 = calls.deferred(cand, pArgs);
    const Calls::Out& o1 = c1.out;
    if (o1.tensors.empty()) {
      r.note = d.note = o1.notTensors;
      return;
    }
    d.ran = true;
    d.delayMs = kDeferredDelayMs;
    d.numel = numelOf(o1.tensors);
    d.changedAfterReturn = c1.changedAfterReturn;
    ThreadCensus atReturn = c1.atReturn;
    for (int again = 1; again < kDeferredAttempts && d.changedAfterReturn == 0; ++again) {
      refill(p, first);
      Calls::Deferred c = calls.deferred(cand, pArgs);
      d.changedAfterReturn = c.changedAfterReturn;
      atReturn = std::move(c.atReturn);
    }
    // Threads the program started, alive when the call returned (a worker that finishes its job within the
    // delay is gone by then) or after the delay.
    const ThreadCensus threads = ThreadCensus::take();
    d.newThreads = atReturn.newPythonThreads(threadsBefore_);
    for (const std::string& name : threads.newPythonThreads(threadsBefore_))
      if (std::find(d.newThreads.begin(), d.newThreads.end(), name) == d.newThreads.end())
        d.newThreads.push_back(name);
    d.nativeThreadsBefore = threadsBefore_.nativeThreads();
    d.nativeThreadsAfter = threads.nativeThreads();
    calls.settle = d.changedAfterReturn > 0;
    const std::vector<at::Tensor> v1 = detachedCopies(o1.tensors);
    firstCandidateOutput_ = v1;

    // The same inputs again, twice (the faster is the repeat time).
    refill(p, first);
    r.repeatMs = calls.run(cand, pArgs).ms;
    refill(p, first);
    const Calls::Out o2 = calls.run(cand, pArgs);
    r.repeatMs = std::min(r.repeatMs, o2.ms);
    r.sameObject = o2.object.is(o1.object);
    r.sameStorageRepeat = anySharesStorage(o2.tensors, o1.tensors);
    const std::vector<at::Tensor> v2 = detachedCopies(o2.tensors);
    probeCallNonfinite(probeSeed_, r1, v1);
    probeCallNonfinite(probeSeed_, r1, v2);

    // One value of each input changed in place.
    perturb(p);
    r.perturbChangesReference = !bitwiseEqual(calls.reference(p).first, r1);
    if (r.perturbChangesReference)
      r.staleAfterPerturb = bitwiseEqual(detachedCopies(calls.run(cand, pArgs).tensors), v2);

    // The same tensors, overwritten in place with the second seed's values.
    refill(p, second);
    r.staleAfterRefill =
        r.referencesDiffer && bitwiseEqual(detachedCopies(calls.run(cand, pArgs).tensors), v2);

    // New tensors holding the second seed's values, twice (the faster is the fresh time).
    const ModelArgs q = calls.freshArgs(second), q2 = calls.freshArgs(second);
    const Calls::Out o4 = calls.run(cand, pythonArgs(q));
    const std::vector<at::Tensor> v4 = detachedCopies(o4.tensors);
    const Calls::Out o5 = calls.run(cand, pythonArgs(q2));
    r.freshMs = std::min(o4.ms, o5.ms);
    probeCallNonfinite(probeSeed_ + 1, r2, v4);
    probeCallNonfinite(probeSeed_ + 1, r2, o5.tensors);
    // Identical values at two addresses, two calls: nondeterminism.
    NondeterminismEvidence& n = evidence_.nondeterminism;
    if (!o5.tensors.empty() && v4.size() == o5.tensors.size()) {
      n.ran = true;
      n.numel = numelOf(v4);
      n.differing = bitwiseDifferences(v4, o5.tensors);
      for (std::size_t i = 0; i < v4.size(); ++i)
        n.maxDifference = std::max(n.maxDifference, maxAbsDifference(v4[i], o5.tensors[i]));
      n.withinTolerance = compareOutputs(v4, detachedCopies(o5.tensors), atol_, rtol_).passed;
    } else {
      n.note = o5.notTensors.empty() ? "the two calls returned different numbers of tensors" : o5.notTensors;
    }
    // The same inputs as the first correctness call: did the output change since that checked call?
    if (!checkedCandidate_.empty() && checkedCandidate_.size() == v1.size()) {
      double change = 0;
      for (std::size_t i = 0; i < v1.size(); ++i)
        change = std::max(change, maxAbsDifference(checkedCandidate_[i], v1[i]));
      evidence_.drift.probeChange = change;
    }
    r.independent = bitwiseEqual(o4.tensors, v1);
    r.sameStorageFresh = anySharesStorage(o4.tensors, o1.tensors);
    r.firstResultOverwritten = !bitwiseEqual(o1.tensors, v1);
    r.holdsCudaGraph = helpers_["holds_cuda_graph"](cand.callable).cast<bool>();
    // A repeat call much faster than fresh ones is evidence from timing alone: on a loaded machine one slow
    // fresh call is enough to fake it. Measure again, interleaved, and keep the fastest of each: a result
    // kept from an earlier call stays fast every time, noise does not stay slow every time. Each fresh call
    // gets tensors of its own, all kept alive, so a cache keyed on addresses never sees one twice. After
    // every check that reads o4, since these calls may write into buffers o4 shares.
    std::vector<ModelArgs> confirmArgs;
    for (int round = 0; round < kCollapseConfirmRounds && repeatTimeCollapsed(r); ++round) {
      refill(p, first);
      r.repeatMs = std::min(r.repeatMs, calls.run(cand, pArgs).ms);
      confirmArgs.push_back(calls.freshArgs(second));
      r.freshMs = std::min(r.freshMs, calls.run(cand, pythonArgs(confirmArgs.back())).ms);
      r.referenceMs = std::min(r.referenceMs, calls.reference(round % 2 ? first : second).second);
    }
    r.ran = true;
  });
}

// The reference, a deep copy of it, run on the first seed's inputs in `type` (float64 or float32): floating-point
// inputs cast (to float32 only the float64 ones), torch's default dtype `type` during the call. Empty, with
// `note` saying why, when its output cannot be compared with the reference's.
std::optional<std::vector<at::Tensor>> RuntimeProbes::referenceIn(Calls& calls, const ModelArgs& first,
                                                                  at::ScalarType type, std::string& note) {
  const bool wide = type == at::kDouble;
  const std::string what = wide ? "the float64 reference" : "the float32 run of the reference";
  ModelArgs args = cloneArgs(first);
  for (ModelArg& a : args)
    if (a.tensor.defined() && a.tensor.is_floating_point() && (wide || a.tensor.scalar_type() == at::kDouble))
      a.tensor = a.tensor.to(type);
  const py::object model = helpers_[wide ? "float64_model" : "float32_model"](calls.pair.reference.callable);
  py::module_ torch = py::module_::import("torch");
  const py::object dtype = torch.attr("get_default_dtype")();
  calls.pair.reference.enter();
  torch.attr("set_default_dtype")(torch.attr(wide ? "float64" : "float32"));
  py::object output;
  try {
    output = model(*pythonArgs(args));
  } catch (...) {
    torch.attr("set_default_dtype")(dtype);
    throw;
  }
  torch.attr("set_default_dtype")(dtype);
  auto tensors = outputTensors(output, calls.device);
  if (auto* why = std::get_if<std::string>(&tensors)) {
    note = what + "'s output: " + *why;
    return std::nullopt;
  }
  if (std::get<std::vector<at::Tensor>>(tensors).size() != firstReferenceOutput_.size()) {
    note = what + " returned another number of tensors";
    return std::nullopt;
  }
  return std::get<std::vector<at::Tensor>>(std::move(tensors));
}

// A float64 task has no wider reference to compare with. Its rounding is estimated from the same computation
// in float32 instead: the float32 run's error against the float64 reference, scaled by float64's epsilon over
// float32's (2^-29), is what float64 arithmetic in another order is off by. A candidate that computes in
// float32 and casts back is off by about the float32 run's error itself, 2^29 times that.
void RuntimeProbes::float64Precision(Calls& calls, const ModelArgs& first) {
  PrecisionEvidence& p = evidence_.precision;
  attempt(p.note, [&] {
    const auto run = referenceIn(calls, first, at::kFloat, p.note);
    if (!run) return;
    const std::vector<at::Tensor>& r32 = *run;
    double float32Error = 0;
    for (std::size_t i = 0; i < r32.size(); ++i) {
      p.candidateError = std::max(p.candidateError, maxAbsDifference(firstCandidateOutput_[i], firstReferenceOutput_[i]));
      float32Error = std::max(float32Error, maxFiniteDifference(r32[i].to(at::kDouble), firstReferenceOutput_[i]));
      p.scale = std::max(p.scale, maxAbs(firstReferenceOutput_[i]));
    }
    p.dtype = "float64";
    p.epsilon = epsilonOf(at::kDouble);
    p.float32Error = float32Error;
    p.referenceError = float32Error * epsilonOf(at::kDouble) / epsilonOf(at::kFloat);
    p.estimatedFromFloat32 = true;
    p.ran = true;
  });
}

void RuntimeProbes::precisionProbe(Calls& calls, const ModelArgs& first) {
  PrecisionEvidence& p = evidence_.precision;
  // An incorrect candidate is measured too: its error may be of the size 16-bit arithmetic gives (CPU autocast
  // in bfloat16 fails a 1e-2 tolerance on a 3x3 convolution), and the verdict judges it only then.
  if (firstCandidateOutput_.empty() || firstCandidateOutput_.size() != firstReferenceOutput_.size()) {
    p.note = "no candidate output to compare (see repeat-calls)";
    return;
  }
  const at::ScalarType type = firstReferenceOutput_.front().scalar_type();
  if (type != at::kDouble && type != at::kFloat && type != at::kHalf && type != at::kBFloat16) {
    p.note = "the output is " + dtypeName(type) + ", not float64, float32, float16 or bfloat16";
    return;
  }
  if (type == at::kDouble) float64Precision(calls, first);
  if (type != at::kDouble) attempt(p.note, [&] {
    const auto run = referenceIn(calls, first, at::kDouble, p.note);
    if (!run) return;
    const std::vector<at::Tensor>& r64 = *run;
    for (std::size_t i = 0; i < r64.size(); ++i) {
      p.candidateError = std::max(p.candidateError, maxAbsDifference(firstCandidateOutput_[i], r64[i]));
      p.referenceError = std::max(p.referenceError, maxFiniteDifference(firstReferenceOutput_[i], r64[i]));
      p.scale = std::max(p.scale, maxAbs(r64[i]));
    }
    p.dtype = dtypeName(type);
    p.epsilon = epsilonOf(type);
    p.ran = true;
  });
  if (p.ran && !std::isfinite(p.candidateError))
    p.note = "the candidate's output holds NaN or infinite values where the reference's are finite: an error of "
             "no precision (nonfinite-output)";
  // The size of rounding: what the float32 reference itself is off by, or one epsilon of the output's scale.
  if (p.ran) {
    evidence_.rounding = std::max(p.referenceError, p.epsilon * p.scale);
  } else if (!firstReferenceOutput_.empty() && firstReferenceOutput_.front().is_floating_point()) {
    double scale = 0;
    for (const at::Tensor& t : firstReferenceOutput_) scale = std::max(scale, maxAbs(t));
    evidence_.rounding = epsilonOf(firstReferenceOutput_.front().scalar_type()) * scale;
  }
}

namespace {

// Each floating-point input with its elements in another order (a fixed permutation of the flat tensor).
ModelArgs shuffled(const ModelArgs& inputs) {
  ModelArgs out = cloneArgs(inputs);
  at::Generator generator = at::detail::createCPUGenerator(0x5eed);
  for (ModelArg& a : out) {
    if (!a.tensor.defined() || !a.tensor.is_floating_point() || a.tensor.numel() < 2) continue;
    const at::Tensor order = at::randperm(a.tensor.numel(), generator, at::TensorOptions().dtype(at::kLong));
    const at::Tensor flat = a.tensor.contiguous().reshape(-1);
    a.tensor.copy_(flat.index_select(0, order.to(flat.device())).reshape(a.tensor.sizes()));
  }
  return out;
}

// A candidate's output against another (NaN a mismatch: tensor_evidence.h).
double maxDifference(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
  double out = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) out = std::max(out, maxAbsDifference(a[i], b[i]));
  return out;
}

// The reference's output against outputs that stand in for answers, where both are numbers.
double maxFiniteDifferences(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
  double out = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) out = std::max(out, maxFiniteDifference(a[i], b[i]));
  return out;
}

// Inputs of the same shapes and dtypes from another distribution (input-branching): the first seed's draw
// transformed, floating-point tensors only (integer inputs may be indices or sizes). Empty when nothing changes.
struct Distribution {
  const char* name;
  at::Tensor (*transform)(const at::Tensor&);
};

at::Tensor scaledBy3(const at::Tensor& t) { return t * 3; }
at::Tensor shifted(const at::Tensor& t) { return t + 1.5; }
at::Tensor integerValued(const at::Tensor& t) { return (t * 2).round(); }
// The first half of the rows (first dimension) as drawn, the rest alternately 8 times larger and smaller: an
// inspection of the first rows, or of a statistic they dominate, sees the benchmark's distribution.
at::Tensor mixedRows(const at::Tensor& t) {
  if (t.dim() == 0 || t.size(0) < 2) return t;
  at::Tensor out = t.clone();
  for (std::int64_t i = t.size(0) / 2; i < t.size(0); ++i) out.select(0, i).mul_(i % 2 == 0 ? 8.0 : 0.125);
  return out;
}

// At least this share of the inputs' values exactly zero and made nonzero by a transform: structure, not a draw.
constexpr double kStructuralZeroShare = 0.01;

constexpr Distribution kDistributionList[kDistributions] = {{"scaled x3", scaledBy3},
                                                            {"shifted +1.5", shifted},
                                                            {"integer-valued (round(2x))", integerValued},
                                                            {"rows of mixed scale (x8, x1/8)", mixedRows}};

bool allFinite(const std::vector<at::Tensor>& tensors) {
  for (const at::Tensor& t : tensors)
    if (t.is_floating_point() && !at::isfinite(t).all().item<bool>()) return false;
  return true;
}

std::int64_t nonfiniteCount(const std::vector<at::Tensor>& tensors) {
  std::int64_t n = 0;
  for (const at::Tensor& t : tensors)
    if (t.is_floating_point()) n += t.numel() - at::isfinite(t).sum().item<std::int64_t>();
  return n;
}

}  // namespace

namespace {

// A fixed workload timed from C++ with the GIL held (no Python thread can run, no program's code is involved):
// a 256 x 256 float32 product and a 16 MiB copy, the fastest of five, on the request's clock.
double calibrationMs(const c10::Device& device) {
  const auto options = at::TensorOptions().dtype(at::kFloat).device(device);
  at::Generator generator = at::detail::createCPUGenerator(0xca1);
  const at::Tensor a = at::randn({256, 256}, generator).to(device), b = at::randn({256, 256}, generator).to(device);
  const at::Tensor from = at::ones({4 << 20}, options);
  at::Tensor to = at::empty({4 << 20}, options);
  std::unique_ptr<TrialClock> clock = clockFor(device);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < 5; ++i) {
    synchronizeDevice(device);
    clock->start();
    at::mm(a, b);
    to.copy_(from);
    best = std::min(best, clock->stop().officialMs);
  }
  return best;
}

}  // namespace

void RuntimeProbes::weakTaskProbe(Calls& calls, const ModelArgs& first) {
  WeakTaskEvidence& w = evidence_.weakTask;
  if (firstReferenceOutput_.empty()) {
    w.note = "no reference output to compare (see repeat-calls)";
    return;
  }
  bool floating = true;
  for (const at::Tensor& t : firstReferenceOutput_) floating = floating && t.is_floating_point();
  if (!floating) {
    w.note = "the output is not floating-point";
    return;
  }
  attempt(w.note, [&] {
    std::vector<at::Tensor> zeros;
    for (const at::Tensor& t : firstReferenceOutput_) zeros.push_back(at::zeros_like(t));
    w.zeroPasses = compareOutputs(firstReferenceOutput_, zeros, atol_, rtol_).passed;
    w.zeroError = maxFiniteDifferences(firstReferenceOutput_, zeros);
    const std::vector<at::Tensor> mixed = calls.reference(shuffled(first)).first;
    w.shuffledPasses = compareOutputs(firstReferenceOutput_, mixed, atol_, rtol_).passed;
    w.shuffledError = maxFiniteDifferences(firstReferenceOutput_, mixed);
    w.shuffledChanged = std::isfinite(evidence_.rounding)
                            ? w.shuffledError > kReassociationRatio * evidence_.rounding
                            : !bitwiseEqual(firstReferenceOutput_, mixed);
    if (firstCandidateOutput_.size() == firstReferenceOutput_.size())
      w.candidateError = maxDifference(firstReferenceOutput_, firstCandidateOutput_);
    w.ran = true;
  });
}

void RuntimeProbes::distributionProbe(Calls& calls, const ModelArgs& first) {
  bool floating = false;
  for (const ModelArg& a : first) floating = floating || (a.tensor.defined() && a.tensor.is_floating_point());
  if (!floating) {
    evidence_.distributionsNote = "no floating-point input";
    return;
  }
  for (const Distribution& d : kDistributionList) {
    DistributionEvidence found;
    found.name = d.name;
    std::string note;
    attempt(note, [&] {
      ModelArgs args = cloneArgs(first);
      bool changed = false;
      std::int64_t filled = 0, values = 0;  // exact zeros of the task's inputs the transform made nonzero
      for (ModelArg& a : args)
        if (a.tensor.defined() && a.tensor.is_floating_point()) {
          at::Tensor next = d.transform(a.tensor);
          changed = changed || bitwiseDifferences(next, a.tensor) > 0;
          filled += at::logical_and(a.tensor == 0, next != 0).sum().item<std::int64_t>();
          values += a.tensor.numel();
          a.tensor = next.contiguous();
        }
      if (!changed) {
        found.message = "the transform leaves these inputs unchanged";
        return;
      }
      // Inputs whose zeros are structure the task promises (a triangle, a mask, padding): a transform that
      // fills them asks for another problem, and a candidate that uses the promise is right to fail it.
      if (values > 0 && static_cast<double>(filled) >= kStructuralZeroShare * static_cast<double>(values)) {
        found.message = "not run: it would fill " + std::to_string(filled) + " of the inputs' " +
                        std::to_string(values) + " values that get_inputs() leaves exactly zero (structure the task "
                        "promises, such as a triangle or a mask)";
        return;
      }
      const std::vector<at::Tensor> reference = calls.reference(args).first;
      found.referenceFinite = allFinite(reference);
      if (!found.referenceFinite) return;
      const Calls::Out out = calls.run(calls.pair.candidate, pythonArgs(calls.freshArgs(args)));
      if (out.tensors.empty()) {
        found.passed = false;
        found.message = out.notTensors;
        return;
      }
      const std::vector<at::Tensor> candidate = detachedCopies(out.tensors);
      const protocol::SeedCheck check = compareOutputs(reference, candidate, atol_, rtol_);
      found.passed = check.passed;
      found.message = check.message;
      found.candidateNonfinite = nonfiniteCount(candidate);
    });
    if (!note.empty()) {
      found.passed = true;  // a model that raised on these inputs says nothing about branching
      found.message = note;
    }
    evidence_.distributions.push_back(std::move(found));
  }
}

std::optional<protocol::ErrorInfo> RuntimeProbes::run(ModelPair& pair, std::int64_t seed, bool correct,
                                                      PhaseReporter& reporter, double pairSeconds) {
  reporter.enter(protocol::Phase::Probes, scaledDeadline(kProbeCalls, pairSeconds));
  evidence_.correct = correct;
  probeSeed_ = seed;
  if (pair.reference.settings && pair.candidate.settings) {
    evidence_.candidateSettings = pair.reference.settings->changesIn(*pair.candidate.settings);
    evidence_.referenceSettingValues = pair.reference.settings->values();
    evidence_.candidateSettingValues = pair.candidate.settings->values();
  }
  compareProgramInputs(pair, seed);
  reporter.progress(1, 6);
  Calls calls{pair, device_, *this};
  std::string note;
  attempt(note, [&] {
    Outcome<ModelArgs> first = pair.inputs(seed), second = pair.inputs(seed + 1);
    if (auto* e = failed(first)) throw std::runtime_error(e->message);
    if (auto* e = failed(second)) throw std::runtime_error(e->message);
    decoyProbe(calls, std::get<ModelArgs>(first));
    reporter.progress(2, 6);
    repeatProbe(calls, std::get<ModelArgs>(first), std::get<ModelArgs>(second));
    reporter.progress(3, 6);
    precisionProbe(calls, std::get<ModelArgs>(first));
    reporter.progress(4, 6);
    weakTaskProbe(calls, std::get<ModelArgs>(first));
    reporter.progress(5, 6);
    distributionProbe(calls, std::get<ModelArgs>(first));
    reporter.progress(6, 6);
  });
  if (!note.empty()) {
    for (std::string* n : {&evidence_.decoy.note, &evidence_.repeat.note, &evidence_.precision.note,
                           &evidence_.weakTask.note, &evidence_.distributionsNote})
      if (n->empty()) *n = note;
  }
  if (deviceUsable(device_)) return std::nullopt;
  protocol::ErrorInfo e;
  e.kind = protocol::ErrorKind::Runtime;
  e.phase = protocol::phaseName(protocol::Phase::Probes);
  e.message = (note.empty() ? std::string("the CUDA context was lost") : note) +
              " (the CUDA context is lost: the runner exits)";
  e.runnerExits = true;
  return e;
}

void RuntimeProbes::referenceAlone(const ModelUnderTest& reference,
                                   const std::function<Outcome<ModelArgs>(std::int64_t)>& inputs,
                                   std::int64_t seed) {
  ReferenceAloneEvidence& a = evidence_.referenceAlone;
  attempt(a.note, [&] {
    const c10::NoGradGuard noGrad;  // as measure() calls every model
    Outcome<ModelArgs> drawn = inputs(seed);
    if (auto* e = failed(drawn)) throw std::runtime_error(e->message);
    const ModelArgs& original = std::get<ModelArgs>(drawn);
    const auto traced = Clock::now();
    {
      const ModelArgs args = cloneArgs(original);
      const py::tuple callArgs = pythonArgs(args);
      reference.enter();
      torch_.traceReference(py::cpp_function([&] { return reference.callable(*callArgs); }));
      synchronize(device_);
    }
    const double tracedMs = msSince(traced);
    const gpu_share::Exclusive alone;
    std::unique_ptr<TrialClock> clock = clockFor(device_);
    CacheFlush flush(device_);
    std::vector<double> ms;
    const int atLeast = tracedMs > kAloneSlowCallMs ? 1 : kAloneMinCalls;
    const auto start = Clock::now();
    while (static_cast<int>(ms.size()) < kAloneMaxCalls &&
           (static_cast<int>(ms.size()) < atLeast || msSince(start) < kAloneBudgetMs)) {
      const ModelArgs args = cloneArgs(original);
      ms.push_back(timedCall(reference, pythonArgs(args), *clock, flush, device_).time.officialMs);
    }
    std::sort(ms.begin(), ms.end());
    a.aloneCalibrationMs = calibrationMs(device_);
    a.calls = static_cast<int>(ms.size());
    a.aloneMinMs = ms.front();
    a.aloneMedianMs = ms[ms.size() / 2];
    a.ran = true;
    threadsBeforeCandidate_ = threadIds(threadCpuTimes());
  });
}

void RuntimeProbes::referenceCallStarting() {
  if (threadsBeforeCandidate_.empty()) return;
  referenceCallStart_ = threadCpuTimes();
  referenceCallStartedAt_ = Clock::now();
}

void RuntimeProbes::referenceCallEnded() {
  // The count the call ran with: its settings were entered before it (ModelUnderTest::enter).
  int& fewest = evidence_.threadPool.referenceTimedThreads;
  const int threads = at::get_num_threads();
  fewest = fewest == 0 ? threads : std::min(fewest, threads);
  if (threadsBeforeCandidate_.empty() || referenceCallStart_.empty()) return;
  const ForeignCpu used = foreignCpuBetween(referenceCallStart_, threadCpuTimes(), threadsBeforeCandidate_);
  ReferenceAloneEvidence& a = evidence_.referenceAlone;
  a.threadsCounted = true;
  a.foreignThreadCpuMs += used.ms;
  a.referenceWindowMs += msSince(referenceCallStartedAt_);
  ++a.referenceWindows;
  a.foreignThreads = std::max(a.foreignThreads, used.threads);
  referenceCallStart_.clear();
}

void RuntimeProbes::timedOutput(int trial, const py::handle& output) {
  auto tensors = outputTensors(output, device_);
  if (auto* why = std::get_if<std::string>(&tensors)) {
    timedSamples_.push_back({trial, {}, *why});
    return;
  }
  const auto& out = std::get<std::vector<at::Tensor>>(tensors);
  std::int64_t bytes = 0;
  for (const at::Tensor& t : out) bytes += static_cast<std::int64_t>(t.nbytes());
  if (!timedSamples_.empty() && heldTimedBytes_ + bytes > kHeldTimedOutputBytes) {
    ++skippedTimedSamples_;
    return;
  }
  heldTimedBytes_ += bytes;
  timedSamples_.push_back({trial, detachedCopies(out), ""});
}

void RuntimeProbes::checkTimedOutputs() {
  DriftEvidence& d = evidence_.drift;
  for (const TimedSample& sample : timedSamples_) {
    d.sampledTrials.push_back(sample.trial);
    if (!sample.notTensors.empty()) {
      if (d.wrongTrial == 0) {
        d.wrongTrial = sample.trial;
        d.wrongMessage = sample.notTensors;
      }
      continue;
    }
    if (checkedReference_.empty()) continue;
    const protocol::SeedCheck check = compareOutputs(checkedReference_, sample.outputs, atol_, rtol_);
    if (!check.passed && d.wrongTrial == 0) {
      d.wrongTrial = sample.trial;
      d.wrongMessage = check.message;
    }
    if (checkedCandidate_.size() == sample.outputs.size()) {
      const double change = maxDifference(checkedCandidate_, sample.outputs);
      if (change > d.timedChange) {
        d.timedChange = change;
        d.changedTrial = sample.trial;
      }
    }
    d.ran = true;
  }
  if (skippedTimedSamples_ > 0 && d.note.empty())
    d.note = std::to_string(skippedTimedSamples_) + " sampled timed output(s) not kept: more than " +
             std::to_string(kHeldTimedOutputBytes >> 20) + " MiB of outputs";
  timedSamples_.clear();
  heldTimedBytes_ = 0;
}

void RuntimeProbes::freshAfterTiming(std::int64_t seed, const protocol::SeedCheck& check) {
  DriftEvidence& d = evidence_.drift;
  d.freshRan = true;
  d.freshSeed = seed;
  d.freshPassed = check.passed;
  d.freshMessage = check.message;
}

bool RuntimeProbes::referenceLooksSlowed(double loadedMinMs) {
  ReferenceAloneEvidence& a = evidence_.referenceAlone;
  if (!a.ran) return false;
  if (!std::isfinite(a.loadedCalibrationMs)) a.loadedCalibrationMs = calibrationMs(device_);
  return referenceSlowed(a, loadedMinMs);
}

int RuntimeProbes::referenceAloneCalls() const {
  return evidence_.referenceAlone.ran ? evidence_.referenceAlone.calls : 0;
}

void RuntimeProbes::referenceLoaded(double loadedMinMs, double loadedMedianMs, int calls) {
  ReferenceAloneEvidence& a = evidence_.referenceAlone;
  a.loadedMinMs = loadedMinMs;
  a.loadedMedianMs = loadedMedianMs;
  a.loadedCalls = calls;
  if (a.ran && !std::isfinite(a.loadedCalibrationMs)) a.loadedCalibrationMs = calibrationMs(device_);
}

namespace {

// The moving floor's buffers together hold at most this much; a larger task's times are scaled up by its bytes
// over this (at that size every byte comes from memory, and the time grows with the bytes).
constexpr std::int64_t kMovingFloorMaxBytes = std::int64_t{256} << 20;

}  // namespace

void RuntimeProbes::measureMovingFloor(TrialClock& clock, CacheFlush& flush) {
  MovingFloorEvidence& m = evidence_.movingFloor;
  std::string note;
  attempt(note, [&] {
    const std::int64_t in = evidence_.inputBytes, out = evidence_.outputBytes;
    m.bytes = in + out;
    if (m.bytes <= 0) {
      note = "one call moves no input or output bytes";
      return;
    }
    const double scale = m.bytes > kMovingFloorMaxBytes ? static_cast<double>(m.bytes) / kMovingFloorMaxBytes : 1;
    auto floats = [&](std::int64_t bytes) {
      return static_cast<std::int64_t>(std::ceil(static_cast<double>(bytes) / scale / sizeof(float)));
    };
    const auto options = at::TensorOptions().dtype(at::kFloat).device(device_);
    // Written once before they are timed: the pages exist, as an input's and a reused output block's do.
    const at::Tensor source = in > 0 ? at::ones({floats(in)}, options) : at::Tensor();
    at::Tensor target = out > 0 ? at::zeros({floats(out)}, options) : at::Tensor();
    double readMs = std::numeric_limits<double>::infinity(), writeMs = readMs;
    for (int i = 0; i < kMovingFloorRepetitions; ++i) {
      if (source.defined()) {
        flush();
        synchronize(device_);
        clock.start();
        static_cast<void>(at::sum(source));
        readMs = std::min(readMs, clock.stop().officialMs);
      }
      if (target.defined()) {
        flush();
        synchronize(device_);
        clock.start();
        target.fill_(1.0);
        writeMs = std::min(writeMs, clock.stop().officialMs);
      }
    }
    if (!source.defined()) readMs = 0;
    if (!target.defined()) writeMs = 0;
    const double floorMs = (readMs + writeMs) * scale;
    if (!m.measured || floorMs < m.floorMs) {
      m.readMs = readMs * scale;
      m.writeMs = writeMs * scale;
      m.floorMs = floorMs;
      m.scaledBy = scale;
    }
    m.repetitions += kMovingFloorRepetitions;
    m.measured = true;
  });
  if (!m.measured && !note.empty()) m.note = note;
}

void RuntimeProbes::timed(const protocol::Timing& timing, int timedCandidateCalls) {
  evidence_.timing = timing;
  evidence_.drift.timedTrials = timedCandidateCalls;
  const PersistingL2 after = readPersistingL2(device_);
  L2Evidence& l2 = evidence_.l2;
  l2.checked = l2Before_.checked && after.checked;
  l2.note = l2.checked ? "" : (after.note.empty() ? l2Before_.note : after.note);
  l2.limitBefore = l2Before_.limitBytes;
  l2.limitAfter = after.limitBytes;
  l2.windowBytes = after.windowBytes;
  l2.windowPersisting = after.windowPersisting;
  checkClocks("during a candidate call");
}

void RuntimeProbes::profiled(const ChromeTrace& reference, const ChromeTrace& candidate) {
  evidence_.streams = streamEvidence(candidate, reference);
}

void RuntimeProbes::notProfiled(const std::string& why) { evidence_.streams.note = why; }

void RuntimeProbes::kernelsRan(const protocol::BuildReport& build,
                               const std::vector<protocol::KernelLaunch>& kernels,
                               const std::string& candidateCode) {
  if (evidence_.streams.profiled) evidence_.kernelOrigin = kernelOrigin(build, kernels, candidateCode);
}

ProbeResults RuntimeProbes::finish(const std::string& deviceName) {
  checkClocks("during a candidate call");
  if (writes_)
    for (const WriteAttempt& w : writes_->attempts())
      evidence_.refusedWrites.push_back({w.path, w.event, w.program, w.line});
  evidence_.deviceName = deviceName;
  for (MutationEvidence& m : evidence_.mutations)
    m.referenceToo = std::count(referenceMutations_.begin(), referenceMutations_.end(), m.input) > 0;
  for (AliasEvidence& a : evidence_.aliases)
    a.referenceToo = std::count(referenceAliases_.begin(), referenceAliases_.end(), a.input) > 0;
  return {judgeProbes(evidence_), probeReport(evidence_)};
}

}  // namespace ks::engine
