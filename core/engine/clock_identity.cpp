#include "core/engine/clock_identity.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

struct Watched {
  const char* module;
  const char* owner;  // a class of the module, or "" for the module itself
  const char* attribute;
  bool checker = false;
};

// Owners before their members, so restoring a replaced class comes before restoring its methods.
constexpr Watched kWatched[] = {
    {"time", "", "perf_counter"},
    {"time", "", "perf_counter_ns"},
    {"time", "", "time"},
    {"time", "", "time_ns"},
    {"time", "", "monotonic"},
    {"time", "", "process_time"},
    {"torch.cuda", "", "Event"},
    {"torch.cuda", "", "Stream"},
    {"torch.cuda", "", "synchronize"},
    {"torch.cuda", "Event", "elapsed_time"},
    {"torch.cuda", "Event", "record"},
    {"torch.cuda", "Event", "synchronize"},
    {"torch.cuda", "Stream", "synchronize"},
    {"torch", "", "allclose", true},
    {"torch", "", "isclose", true},
    {"torch", "", "equal", true},
    {"torch", "", "eq", true},
    {"torch.testing", "", "assert_close", true},
    {"torch", "Tensor", "__eq__", true},
    {"torch", "Tensor", "__ne__", true},
    {"torch", "Tensor", "allclose", true},
    {"torch", "Tensor", "isclose", true},
    {"torch", "Tensor", "equal", true},
    {"torch", "Tensor", "eq", true},
    {"torch", "Tensor", "__bool__", true},
};

// The code object behind a function or bound method; None when it has none (builtins, callable objects).
py::object codeOf(const py::handle& value) {
  if (py::hasattr(value, "__code__")) return value.attr("__code__");
  if (py::hasattr(value, "__func__")) return codeOf(value.attr("__func__"));
  return py::none();
}

}  // namespace

ClockIdentity ClockIdentity::take() {
  ClockIdentity c;
  for (const Watched& w : kWatched) {
    try {
      py::object owner = py::module_::import(w.module);
      if (*w.owner) owner = owner.attr(w.owner);
      const std::string name =
          std::string(w.module) + (*w.owner ? std::string(".") + w.owner : "") + "." + w.attribute;
      c.entries_.push_back({name, owner, w.attribute, owner.attr(w.attribute), w.checker});
    } catch (py::error_already_set&) {
      // Not in this Python or torch.
    }
  }
  return c;
}

std::vector<ClockReplacement> ClockIdentity::replaced() const {
  std::vector<ClockReplacement> out;
  for (const Entry& e : entries_) {
    const py::object now = py::getattr(e.owner, e.attribute.c_str(), py::none());
    if (now.is(e.original)) continue;
    ClockReplacement r;
    r.name = e.name;
    r.checker = e.checker;
    r.replacement = py::str(py::getattr(now, "__qualname__", py::type::of(now).attr("__qualname__")));
    const py::object code = codeOf(now);
    if (!code.is_none()) {
      r.file = py::str(code.attr("co_filename"));
      r.line = code.attr("co_firstlineno").cast<int>();
    }
    out.push_back(std::move(r));
  }
  return out;
}

void ClockIdentity::restore() const {
  for (const Entry& e : entries_)
    if (!py::getattr(e.owner, e.attribute.c_str(), py::none()).is(e.original))
      py::setattr(e.owner, e.attribute.c_str(), e.original);
}

}  // namespace ks::engine
