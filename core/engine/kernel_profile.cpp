#include "core/engine/kernel_profile.h"

#include <pybind11/pybind11.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace py = pybind11;

namespace ks::engine {
namespace {

constexpr int kMarkerCycles = 1000;  // about a microsecond: a marker, not a delay

// Kineto leaves CUPTI attached after a profile unless TEARDOWN_CUPTI is "1", and every later kernel of the
// process then runs slower: on the H200 a CUDA-graph candidate (CUDA-L1 L3/35) replayed 1.32x slower after one
// kernel profile and as fast as before with the variable set (bench/gpu/plain-variants.sh,
// docs/method-fidelity.md). The runner times several requests and the seeds' methods after a profile, so
// Kineto finalizes CUPTI after each one. Older CUDA crashed on re-attaching CUPTI after a teardown when CUDA
// graphs were used (fixed in 12.6, PyTorch's own reasoning in torch/profiler): below it the variable is left
// as it is.
void detachCuptiAfterProfiles() {
  py::module_ torch = py::module_::import("torch");
  const py::object version = torch.attr("version").attr("cuda");
  if (version.is_none()) return;
  int major = 0, minor = 0;
  if (std::sscanf(version.cast<std::string>().c_str(), "%d.%d", &major, &minor) < 1) return;
  if (major < 12 || (major == 12 && minor < 6)) return;
  py::module_::import("os").attr("environ")["TEARDOWN_CUPTI"] = "1";
}

// torch.profiler.profile over CUDA activity, recording CUDA synchronization events (stream waits) where
// this torch's profiler can (its _ExperimentalConfig takes enable_cuda_sync_events from torch 2.2 on).
py::object profilerSession() {
  detachCuptiAfterProfiles();
  py::module_ profiler = py::module_::import("torch.profiler");
  py::list activities;
  activities.append(profiler.attr("ProfilerActivity").attr("CUDA"));
  try {
    py::object config = py::module_::import("torch._C._profiler")
                            .attr("_ExperimentalConfig")(py::arg("enable_cuda_sync_events") = true);
    return profiler.attr("profile")(py::arg("activities") = activities,
                                    py::arg("experimental_config") = config);
  } catch (py::error_already_set&) {
    return profiler.attr("profile")(py::arg("activities") = activities);
  }
}

}  // namespace

ProfiledCall profileKernels(const std::function<void()>& call, const std::string& model,
                            const std::filesystem::path& traceFile) {
  py::object cuda = py::module_::import("torch.cuda");
  py::object session = profilerSession();
  session.attr("__enter__")();
  try {
    cuda.attr("_sleep")(kMarkerCycles);
    call();
    cuda.attr("_sleep")(kMarkerCycles);
    cuda.attr("synchronize")();
  } catch (...) {
    session.attr("__exit__")(py::none(), py::none(), py::none());
    throw;
  }
  session.attr("__exit__")(py::none(), py::none(), py::none());
  session.attr("export_chrome_trace")(traceFile.string());
  std::ifstream in(traceFile, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  ProfiledCall out;
  out.trace = readChromeTrace(text.str());
  out.kernels = kernelsFromChromeTrace(out.trace, model);
  return out;
}

}  // namespace ks::engine
