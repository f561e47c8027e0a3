#include "core/engine/write_watch.h"

#include <pybind11/eval.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace py = pybind11;

namespace ks::engine {
namespace {

constexpr const char* kHook = R"PY(
import errno
import os
import sys

state = {"active": False, "allowed": (), "programs": {}, "attempts": []}
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_TARGETS = {"os.rename": 1, "os.remove": 0, "os.rmdir": 0, "os.mkdir": 0, "os.symlink": 1, "os.link": 1,
            "os.truncate": 0, "shutil.copyfile": 1, "shutil.rmtree": 0}


def _target(event, args):
    if event == "open":
        path, mode, flags = args
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            mode is None and isinstance(flags, int) and flags & _WRITE_FLAGS)
        return path if writes else None
    index = _TARGETS.get(event)
    return None if index is None or len(args) <= index else args[index]


def _allowed(path):
    for prefix in state["allowed"]:
        if path == prefix or path.startswith(prefix.rstrip(os.sep) + os.sep):
            return True
    # Python's own bytecode cache (importlib writes it for modules it compiles).
    return os.sep + "__pycache__" + os.sep in path


def hook(event, args):
    if not state["active"]:
        return
    target = _target(event, args)
    if target is None or isinstance(target, int):
        return
    try:
        path = os.path.abspath(os.fsdecode(os.fspath(target)))
    except Exception:
        return
    if _allowed(path):
        return
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename not in state["programs"]:
        frame = frame.f_back
    if frame is None:
        return
    state["attempts"].append((path, event, state["programs"][frame.f_code.co_filename], frame.f_lineno))
    raise PermissionError(errno.EACCES, "kscope-runner refuses writes outside the scratch folder", path)


sys.addaudithook(hook)
)PY";

py::dict& watch() {
  static py::dict* d = [] {
    auto* scope = new py::dict();  // lives as long as the interpreter: the hook cannot be removed
    py::exec(kHook, *scope);
    return scope;
  }();
  return *d;
}

}  // namespace

WriteWatch::WriteWatch(const std::vector<std::filesystem::path>& writable, const std::vector<ProgramFile>& programs) {
  py::dict& scope = watch();
  py::dict state = scope["state"].cast<py::dict>();
  py::list allowed;
  for (const auto& w : writable)
    if (!w.empty()) allowed.append(std::filesystem::absolute(w).lexically_normal().string());
  py::module_ tempfile = py::module_::import("tempfile");
  allowed.append(tempfile.attr("gettempdir")());
  if (const char* extra = std::getenv("KSCOPE_WRITABLE")) {
    std::string s = extra;
    for (std::size_t start = 0; start <= s.size();) {
      const std::size_t end = s.find(':', start);
      const std::string part = s.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (!part.empty()) allowed.append(part);
      if (end == std::string::npos) break;
      start = end + 1;
    }
  }
  for (const char* device : {"/dev", "/proc/self"}) allowed.append(device);
  allowed.append("/proc/" + std::to_string(getpid()));
  py::dict files;
  for (const ProgramFile& p : programs) files[py::str(p.path)] = p.role;
  state["allowed"] = py::tuple(allowed);
  state["programs"] = files;
  state["attempts"] = py::list();
  state["active"] = true;
}

WriteWatch::~WriteWatch() {
  try {
    py::dict state = watch()["state"].cast<py::dict>();
    state["active"] = false;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kscope-runner: stopping the write watch failed: %s\n", e.what());
  }
}

std::vector<WriteAttempt> WriteWatch::attempts() const {
  std::vector<WriteAttempt> out;
  py::dict state = watch()["state"].cast<py::dict>();
  for (py::handle a : state["attempts"]) {
    const py::tuple t = py::reinterpret_borrow<py::tuple>(a);
    out.push_back({t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<std::string>(), t[3].cast<int>()});
  }
  return out;
}

}  // namespace ks::engine
