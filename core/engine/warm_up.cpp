#include "core/engine/warm_up.h"

#include <pybind11/pybind11.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/engine/kernel_profile.h"
#include "core/engine/trial_clock.h"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace ks::engine {
namespace {

using Clock = std::chrono::steady_clock;

// Steps timed back to back: each clock stops after a device-wide synchronize, and the next starts there.
class TimedSteps {
 public:
  TimedSteps(const c10::Device& device, Clock::time_point since) : device_(device), start_(since) {
    result_.device = device.is_cuda() ? "cuda" : "cpu";
  }

  void run(const char* name, const std::function<void()>& step) {
    step();
    synchronizeDevice(device_);
    const Clock::time_point end = Clock::now();
    const double seconds = std::chrono::duration<double>(end - start_).count();
    result_.steps.push_back({name, seconds});
    result_.seconds += seconds;
    start_ = end;
  }

  protocol::WarmUpResult result() && { return std::move(result_); }

 private:
  c10::Device device_;
  Clock::time_point start_;
  protocol::WarmUpResult result_;
};

// torch.ones(*shape, device=device): fixed values, so no random generator's state moves.
py::object ones(const py::module_& torch, const py::object& device, const py::tuple& shape) {
  py::dict kwargs;
  kwargs["device"] = device;
  return torch.attr("ones")(*shape, **kwargs);
}

void matmul(const py::module_& torch, const py::object& device) {
  const py::object a = ones(torch, device, py::make_tuple(64, 64));
  torch.attr("matmul")(a, a);
}

void conv2d(const py::module_& torch, const py::object& device) {
  const py::object conv2d = torch.attr("nn").attr("functional").attr("conv2d");
  conv2d(ones(torch, device, py::make_tuple(1, 3, 16, 16)), ones(torch, device, py::make_tuple(8, 3, 3, 3)));
}

// One profiled call of a tiny op, as measurement.cpp profiles a model: the profiler's first session
// (kineto and CUPTI starting) is the largest one-time cost of a fresh runner's first evaluate.
void profileOnce(const py::module_& torch, const py::object& device, const fs::path& scratchRoot) {
  std::error_code ec;
  const bool created = fs::create_directories(scratchRoot, ec);
  if (ec || !fs::is_directory(scratchRoot))
    throw std::runtime_error("cannot create the scratch folder " + scratchRoot.string() + ": " +
                             ec.message());
  const fs::path trace = scratchRoot / "warm_up.trace.json";
  const py::object x = ones(torch, device, py::make_tuple(1024));
  struct Cleanup {
    const fs::path &trace, &root;
    bool created;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove(trace, ignored);
      if (created) fs::remove(root, ignored);  // only when empty
    }
  } cleanup{trace, scratchRoot, created};
  profileKernels([&] { x.attr("mul_")(2); }, "warm_up", trace);
}

}  // namespace

protocol::WarmUpResult warmUpDevice(const c10::Device& device, Clock::time_point since,
                                    const fs::path& scratchRoot) {
  const py::module_ torch = py::module_::import("torch");
  const py::object dev = torch.attr("device")(device.str());
  TimedSteps steps(device, since);
  if (!device.is_cuda()) {
    steps.run("cpu_matmul", [&] { matmul(torch, dev); });
    steps.run("cpu_conv2d", [&] { conv2d(torch, dev); });
    return std::move(steps).result();
  }
  steps.run("cuda_context", [&] {
    torch.attr("cuda").attr("init")();
    ones(torch, dev, py::make_tuple(1));
  });
  steps.run("cublas", [&] { matmul(torch, dev); });
  steps.run("cudnn", [&] { conv2d(torch, dev); });
  steps.run("profiler", [&] { profileOnce(torch, dev, scratchRoot); });
  return std::move(steps).result();
}

}  // namespace ks::engine
