#include "core/engine/engine.h"

#include <c10/util/Exception.h>
#include <pybind11/pybind11.h>
#include <torch/cuda.h>

#include <chrono>
#include <cstdio>
#include <optional>

#include "core/hash/sha256.h"
#include "core/engine/clock_identity.h"
#include "core/engine/cuda_l1_eval.h"
#include "core/engine/import_state.h"
#include "core/engine/environment_probe.h"
#include "core/engine/gpu_share.h"
#include "core/engine/gemm_baselines.h"
#include "core/engine/gemm_task.h"
#include "core/engine/measurement.h"
#include "core/engine/native_task.h"
#include "core/engine/phase_deadlines.h"
#include "core/engine/python_task.h"
#include "core/engine/runtime_probes.h"
#include "core/engine/torch_settings.h"
#include "core/engine/trial_clock.h"
#include "core/engine/warm_up.h"
#include "core/engine/workspace.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

// Inputs kept per seed for the request (memoizeInputs): enough for every KernelBench task's five seeds but
// the largest, which then draw each time as before.
constexpr std::size_t kInputMemoBytes = std::size_t(4) << 30;
// Added to each phase's deadline when runners share the GPU: the longest wait for the others' timing.
constexpr double kGpuShareAllowanceS = 300;

using protocol::ErrorInfo;
using protocol::ErrorKind;

ErrorInfo requestError(std::string message) {
  ErrorInfo e;
  e.kind = ErrorKind::Protocol;
  e.message = std::move(message);
  return e;
}

// Names the phase an error happened in, when the step that failed did not.
ErrorInfo inPhase(ErrorInfo e, const PhaseReporter& reporter) {
  if (e.phase.empty() && e.kind != ErrorKind::Protocol && reporter.current())
    e.phase = protocol::phaseName(*reporter.current());
  return e;
}

bool cudaUsable() { return torch::cuda::is_available() && builtWithCuda(); }

Outcome<c10::Device> resolveDevice(const std::string& requested) {
  const bool available = torch::cuda::is_available();
  if (requested == "cpu" || (requested.empty() && !available)) return c10::Device(c10::kCPU);
  const std::string torchVersion =
      py::str(py::module_::import("torch").attr("__version__")).cast<std::string>();
  if (!available)
    return requestError("device \"cuda\" was asked for, but torch " + torchVersion + " sees no CUDA device");
  if (!builtWithCuda())
    return requestError("this kscope-runner was built against a torch without CUDA, but torch " +
                        torchVersion + " has CUDA: rebuild the runner against this torch");
  const int index = py::module_::import("torch").attr("cuda").attr("current_device")().cast<int>();
  return c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(index));
}

// Undoes what a request did to the process: torch settings, Python objects, cached GPU memory. Declared
// before the request's models, so it runs after they are gone.
class RequestScope {
 public:
  RequestScope(const c10::Device& device) : device_(device), before_(TorchSettings::read()) {}
  ~RequestScope() {
    try {
      before_.restore();
      py::module_::import("gc").attr("collect")();
      if (device_.is_cuda() && deviceUsable(device_)) py::module_::import("torch.cuda").attr("empty_cache")();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "kscope-runner: cleaning up after a request failed: %s\n", e.what());
    }
  }
  RequestScope(const RequestScope&) = delete;
  RequestScope& operator=(const RequestScope&) = delete;
  std::vector<std::string> changes() const { return before_.changesIn(TorchSettings::read()); }

 private:
  c10::Device device_;
  TorchSettings before_;
};

protocol::BuildReport buildReport(const std::vector<protocol::ExtensionBuild>& extensions) {
  protocol::BuildReport r;
  r.extensions = extensions;
  for (const auto& x : extensions) {
    r.seconds += x.seconds;
    r.cacheHit = r.cacheHit && x.cacheHit;  // a compiler failure replayed from the cache is a hit too
    for (const auto& f : x.flags)
      if (std::find(r.flags.begin(), r.flags.end(), f) == r.flags.end()) r.flags.push_back(f);
  }
  return r;
}

}  // namespace

template <class T, class F>
Outcome<T> Engine::guarded(F&& body) {
  ErrorInfo info;
  info.kind = ErrorKind::Runtime;
  try {
    Outcome<T> out = body();
    if (auto* e = failed(out); e && e->runnerExits) deviceLost_ = true;
    return out;
  } catch (py::error_already_set& e) {
    info.message = std::string("kscope-runner: unexpected Python error: ") + e.what();
  } catch (const c10::Error& e) {
    info.message = std::string("kscope-runner: ") + e.what_without_backtrace();
  } catch (const std::exception& e) {
    info.message = std::string("kscope-runner: ") + e.what();
  }
  if (torch::cuda::is_available() && builtWithCuda()) {
    const int index = py::module_::import("torch").attr("cuda").attr("current_device")().cast<int>();
    if (!deviceUsable(c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(index)))) {
      info.runnerExits = true;
      deviceLost_ = true;
    }
  }
  return info;
}

Outcome<protocol::Environment> Engine::hello() {
  return guarded<protocol::Environment>([&]() -> Outcome<protocol::Environment> {
    protocol::Environment e = probeEnvironment(config_.runner, cudaUsable() ? "cuda" : "cpu");
    e.containment = config_.containment;
    return e;
  });
}

Outcome<protocol::EvaluateResult> Engine::evaluate(const protocol::Request& request, EventSink& sink) {
  return guarded<protocol::EvaluateResult>([&]() -> Outcome<protocol::EvaluateResult> {
    const protocol::TaskSpec& task = *request.task;
    const protocol::CandidateSpec& candidate = *request.candidate;
    const protocol::Options& options = request.options;
    PhaseReporter reporter(sink);
    Outcome<c10::Device> device = resolveDevice(options.device);
    if (auto* e = failed(device)) return *e;
    const c10::Device dev = std::get<c10::Device>(device);
    const bool native = candidate.language == CodeLanguage::Cuda;
    if (native != (task.language == CodeLanguage::Cuda))
      return requestError("task and candidate must both be python or both be cuda");
    if (native && !dev.is_cuda()) return requestError("a native (cuda) candidate needs a CUDA device");

    Outcome<Workspace> workspace =
        Workspace::open(options.scratch, options.cache, request.id, config_.scratchRoot, config_.cacheRoot);
    if (auto* e = failed(workspace)) return *e;
    const Workspace& ws = std::get<Workspace>(workspace);
    // With other runners on the GPU: everything under the shared lock, timing and profile alone
    // (measurement.cpp); every phase may then also wait for the others' timing.
    std::optional<GpuShareLock> share;
    if (!options.gpuShare.empty()) {
      try {
        share.emplace(options.gpuShare);
      } catch (const std::exception& e) {
        return requestError(e.what());
      }
      reporter.allowForWaits(kGpuShareAllowanceS);
    }
    const gpu_share::Scope shareScope(share ? &*share : nullptr, [dev] { synchronizeDevice(dev); });
    RequestScope scope(dev);
    ExtensionBuilds builds(reporter, ws.cache() / "torch-extensions");
    RuntimeProbes probes(dev);  // before any program loads: the baselines
    probes.watchWrites({ws.scratch(), ws.cache(), config_.scratchRoot, config_.cacheRoot},
                       {ProgramModule::fileFor("reference", ws.scratch()), ProgramModule::fileFor("candidate", ws.scratch())});
    const TaskContext context{dev, options.seed, ws.scratch(), &builds,
                              [&probes](const std::string& role, const std::vector<ProgramFile>& programs) {
                                probes.constructed(role, programs);
                              },
                              [&probes, seed = options.seed](
                                  const ModelUnderTest& reference,
                                  const std::function<Outcome<ModelArgs>(std::int64_t)>& inputs) {
                                probes.referenceAlone(reference, inputs, seed);
                              }};

    std::vector<protocol::ExtensionBuild> nativeBuilds;
    std::filesystem::path nativeLibrary;  // GEMM tasks: the candidate's entry, called again by the baselines
    Outcome<ModelPair> pair = [&]() -> Outcome<ModelPair> {
      if (!native) {
        reporter.enter(protocol::Phase::Load, kLoadDeadlineS);
        return preparePythonTask(task, candidate, context);
      }
      Outcome<NativeBuild> built =
          buildNativeCandidate(task, candidate, ws.scratch(), ws.cache() / "native", options.arch, reporter);
      if (auto* e = failed(built)) return *e;
      nativeBuilds.push_back(std::get<NativeBuild>(built).record);
      nativeLibrary = std::get<NativeBuild>(built).library;
      reporter.enter(protocol::Phase::Load, kLoadDeadlineS);
      if (task.gemm) return prepareGemmTask(task, candidate, context, std::get<NativeBuild>(built).library);
      return prepareNativeTask(task, candidate, context, std::get<NativeBuild>(built).library);
    }();
    if (auto* e = failed(pair)) return inPhase(*e, reporter);
    memoizeInputs(std::get<ModelPair>(pair), kInputMemoBytes);

    MeasureSettings settings;
    settings.device = dev;
    settings.seeds = options.seeds;
    settings.seed = options.seed;
    settings.trials = options.trials.value_or(dev.is_cuda() ? 50 : 10);
    settings.trialsFitBudget = !options.trials;
    settings.warmup = options.warmup.value_or(dev.is_cuda() ? 5 : 2);
    settings.atol = options.atol;
    settings.rtol = options.rtol;
    if (task.gemm) {  // against the float32 product, scaled by K (gemm_task.h); the options still override
      const Tolerance tol = gemmTolerance(task.gemm->k);
      if (!settings.atol) settings.atol = tol.atol;
      if (!settings.rtol) settings.rtol = tol.rtol;
    }
    settings.profile = options.profileKernels.value_or(true);
    settings.cpuPin = options.cpuPin.value_or(dev.is_cuda() ? CpuPinScope::Thread : CpuPinScope::None);
    settings.scratch = ws.scratch();
    Outcome<Measurement> measured = measure(std::get<ModelPair>(pair), settings, reporter, probes);
    if (auto* e = failed(measured)) return inPhase(*e, reporter);
    Measurement& m = std::get<Measurement>(measured);

    protocol::EvaluateResult r;
    r.codeHash = hash::codeHash(candidate.code);
    r.device = dev.is_cuda() ? "cuda" : "cpu";
    r.environment = probeEnvironment(config_.runner, r.device);
    r.environment.containment = config_.containment;
    std::vector<protocol::ExtensionBuild> extensions = builds.builds();
    extensions.insert(extensions.end(), nativeBuilds.begin(), nativeBuilds.end());
    r.build = buildReport(extensions);
    r.correctness = std::move(m.correctness);
    r.timing = m.timing;
    r.timingNote = m.timingNote;
    r.kernels = std::move(m.kernels);
    r.kernelsNote = m.kernelsNote;
    r.torchSettingsChanged = scope.changes();
    probes.kernelsRan(r.build, r.kernels, candidate.code);
    ProbeResults found = probes.finish(r.environment.deviceName);
    r.runtimeFlags = std::move(found.flags);
    r.probes = std::move(found.report);
    // CUDA-L1's own evaluation beside KernelScope's, after it: its calls cannot change KernelScope's numbers.
    if (!native && options.cudaL1Eval)
      r.cudaL1 = evaluateCudaL1(std::get<ModelPair>(pair), candidate.code, dev, *options.cudaL1Eval,
                                static_cast<std::uint64_t>(options.seed), r.timing, reporter);
    if (share) r.gpuShare = protocol::GpuShareWaits{share->sharedWaitSeconds(), share->exclusiveWaitSeconds()};
    if (task.gemm) {
      r.gemm = gemmRun(*task.gemm);
      // The baselines and timing methods side by side (gemm_baselines.h), for a correct candidate only.
      if (r.correctness.passed && r.timing) {
        Outcome<NativeShimCall> entry = loadNativeShim(nativeLibrary, nvcc::EntryConvention::GemmOut);
        if (auto* call = std::get_if<NativeShimCall>(&entry)) {
          GemmBaselineSettings baselineSettings;
          baselineSettings.seed = static_cast<std::uint64_t>(options.seed);
          if (options.gemmWarmupSeconds) baselineSettings.sessionWarmupSeconds = *options.gemmWarmupSeconds;
          if (options.gemmSeconds) baselineSettings.sessionSeconds = *options.gemmSeconds;
          baselineSettings.baselines = options.gemmBaselines;
          baselineSettings.methods = options.gemmMethods;
          r.baselines = timeGemmBaselines(*call, *r.gemm, dev, baselineSettings, reporter);
        }
      }
    }
    return r;
  });
}

Outcome<protocol::BuildResult> Engine::build(const protocol::Request& request, EventSink& sink) {
  return guarded<protocol::BuildResult>([&]() -> Outcome<protocol::BuildResult> {
    const protocol::CandidateSpec& candidate = *request.candidate;
    PhaseReporter reporter(sink);
    Outcome<Workspace> workspace = Workspace::open(request.options.scratch, request.options.cache, request.id,
                                                   config_.scratchRoot, config_.cacheRoot);
    if (auto* e = failed(workspace)) return *e;
    const Workspace& ws = std::get<Workspace>(workspace);
    protocol::BuildResult r;
    r.codeHash = hash::codeHash(candidate.code);
    if (candidate.language == CodeLanguage::Cuda) {
      RequestScope scope(c10::Device(c10::kCPU));
      ExtensionBuilds builds(reporter, ws.cache() / "torch-extensions");
      Outcome<NativeBuild> built =
          buildNativeCandidate(*request.task, candidate, ws.scratch(), ws.cache() / "native",
                               request.options.arch, reporter);
      if (auto* e = failed(built)) return inPhase(*e, reporter);
      r.build = buildReport({std::get<NativeBuild>(built).record});
      return r;
    }
    // With a task, the models are constructed and the candidate called once on the task's inputs, on the
    // requested device: many programs call load_inline in ModelNew.__init__ or on the first forward, and
    // those extensions must be built here too, or the timing run compiles them after all. Without a task,
    // only the program is executed.
    const bool withTask = request.task && !request.task->reference.empty();
    Outcome<c10::Device> device = withTask ? resolveDevice(request.options.device) : c10::Device(c10::kCPU);
    if (auto* e = failed(device)) return *e;
    const c10::Device dev = std::get<c10::Device>(device);
    RequestScope scope(dev);
    ExtensionBuilds builds(reporter, ws.cache() / "torch-extensions");
    const TaskContext context{dev, request.options.seed, ws.scratch(), &builds, {}};
    reporter.enter(protocol::Phase::Load, kLoadDeadlineS);
    const ClockIdentity clocks = ClockIdentity::take();  // a program that replaces them leaves no trace
    const ImportState imports = ImportState::take();     // nor one that edits sys.path or sys.modules
    std::optional<ErrorInfo> error;
    if (withTask) {
      Outcome<ModelPair> pair = preparePythonTask(*request.task, candidate, context);
      if (auto* e = failed(pair))
        error = *e;
      else if (auto called = callCandidateOnce(std::get<ModelPair>(pair), dev, request.options.seed, reporter);
               auto* e = failed(called))
        error = *e;
    } else if (auto program = loadCandidateProgram(candidate, context); auto* e = failed(program)) {
      error = *e;
    }
    clocks.restore();
    imports.restore();
    if (error) return inPhase(*error, reporter);
    r.build = buildReport(builds.builds());
    return r;
  });
}

Outcome<protocol::WarmUpResult> Engine::warmUp(const protocol::Request& request) {
  return guarded<protocol::WarmUpResult>([&]() -> Outcome<protocol::WarmUpResult> {
    // Resolving cuda starts the CUDA driver in a fresh runner: part of the first step's cost.
    const auto since = std::chrono::steady_clock::now();
    Outcome<c10::Device> device = resolveDevice(request.options.device);
    if (auto* e = failed(device)) return *e;
    // Beside other runners (kscope batch --timing-jobs): shared, like a check, so the warm-up's kernels stay
    // out of their timed trials and its profiler start-up no longer happens under the lock held alone.
    std::optional<GpuShareLock> share;
    if (!request.options.gpuShare.empty()) {
      try {
        share.emplace(request.options.gpuShare);
      } catch (const std::exception& e) {
        return requestError(e.what());
      }
    }
    const c10::Device dev = std::get<c10::Device>(device);
    const gpu_share::Scope shareScope(share ? &*share : nullptr, [dev] { synchronizeDevice(dev); });
    return warmUpDevice(dev, since, config_.scratchRoot);
  });
}

}  // namespace ks::engine
