#include "core/engine/environment_probe.h"

#include <dlfcn.h>
#include <pybind11/pybind11.h>
#include <unistd.h>

#include <fstream>

#include "core/engine/nvml_probe.h"
#include "core/model/text_trim.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      return std::string(trimmed(std::string_view(line).substr(line.find(':') + 1)));
  return "";
}

std::string hostName() {
  char name[256] = {};
  return gethostname(name, sizeof name - 1) == 0 ? name : "";
}

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.65.06  ..." -> "580.65.06"
std::string procDriverVersion() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return "";
  const auto at = line.find("Kernel Module");
  if (at == std::string::npos) return "";
  const std::string_view rest = trimmed(std::string_view(line).substr(at + 13));
  return std::string(rest.substr(0, rest.find_first_of(" \t")));
}

// "static" when the interpreter is part of this executable (kscope-runner linked with the static libpython,
// cmake/KsStaticPython.cmake), "shared" when it comes from libpython's shared object.
std::string pythonLink() {
  Dl_info python{}, self{};
  if (::dladdr(reinterpret_cast<void*>(&Py_GetVersion), &python) == 0 ||
      ::dladdr(reinterpret_cast<void*>(&pythonLink), &self) == 0)
    return "";
  return python.dli_fbase == self.dli_fbase ? "static" : "shared";
}

std::string str(const py::handle& h) { return h.is_none() ? "" : py::str(h).cast<std::string>(); }

}  // namespace

protocol::Environment probeEnvironment(const std::string& runner, const std::string& device) {
  protocol::Environment e;
  e.runner = runner;
  e.device = device;
  py::module_ torch = py::module_::import("torch");
  e.torch = str(torch.attr("__version__"));
  e.cuda = str(torch.attr("version").attr("cuda"));
  e.python = str(py::module_::import("platform").attr("python_version")());
  e.pythonLink = pythonLink();
  e.cpuThreads = torch.attr("get_num_threads")().cast<int>();
  e.cpu = cpuModel();
  e.hostname = hostName();
  if (device != "cuda") {
    e.deviceName = e.cpu.empty() ? "cpu" : e.cpu;
    return e;
  }
  py::object cuda = torch.attr("cuda");
  const int index = cuda.attr("current_device")().cast<int>();
  py::object props = cuda.attr("get_device_properties")(index);
  e.deviceName = str(props.attr("name"));
  const std::string uuid = py::hasattr(props, "uuid") ? str(props.attr("uuid")) : "";
  const NvmlReading nvml = readNvml(uuid, index);
  e.driver = nvml.driver.empty() ? procDriverVersion() : nvml.driver;
  e.clocks = nvml.clocks;
  return e;
}

}  // namespace ks::engine
