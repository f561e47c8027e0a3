#include "core/engine/thread_pool.h"

#include <ATen/Parallel.h>
#include <pybind11/pybind11.h>

#include <cstdlib>

namespace py = pybind11;

namespace ks::engine {
namespace {

std::string shown(const std::optional<std::string>& v) { return v ? *v : "(unset)"; }

}  // namespace

ThreadPoolState ThreadPoolState::take() {
  ThreadPoolState s;
  s.threads_ = at::get_num_threads();
  const py::object environ = py::module_::import("os").attr("environ");
  for (const char* name : kThreadPoolVariables) {
    std::optional<std::string> python, c;
    if (py::bool_(environ.attr("__contains__")(name))) python = py::str(environ[name]).cast<std::string>();
    if (const char* v = std::getenv(name)) c = v;
    s.variables_.emplace_back(std::move(python), std::move(c));
  }
  return s;
}

std::vector<ThreadPoolChange> ThreadPoolState::changesIn(const ThreadPoolState& now) const {
  std::vector<ThreadPoolChange> out;
  if (now.threads_ != threads_)
    out.push_back({"torch.get_num_threads()", std::to_string(threads_), std::to_string(now.threads_)});
  for (std::size_t i = 0; i < variables_.size() && i < now.variables_.size(); ++i) {
    const auto& [python, c] = variables_[i];
    const auto& [nowPython, nowC] = now.variables_[i];
    if (nowPython != python)
      out.push_back({kThreadPoolVariables[i], shown(python), shown(nowPython)});
    else if (nowC != c)
      out.push_back({std::string(kThreadPoolVariables[i]) + " (C environment)", shown(c), shown(nowC)});
  }
  return out;
}

void ThreadPoolState::restore() const {
  if (threads_ > 0 && at::get_num_threads() != threads_) at::set_num_threads(threads_);
  const py::object environ = py::module_::import("os").attr("environ");
  for (std::size_t i = 0; i < variables_.size(); ++i) {
    const char* name = kThreadPoolVariables[i];
    const auto& [python, c] = variables_[i];
    const bool present = py::bool_(environ.attr("__contains__")(name));
    if (python && (!present || py::str(environ[name]).cast<std::string>() != *python))
      environ[name] = *python;  // os.environ also sets the C environment
    else if (!python && present)
      environ.attr("pop")(name);
    const char* now = std::getenv(name);
    if (c && (!now || *c != now))
      ::setenv(name, c->c_str(), 1);
    else if (!c && now)
      ::unsetenv(name);
  }
}

}  // namespace ks::engine
