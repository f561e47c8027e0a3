#include "core/engine/import_state.h"

namespace py = pybind11;

namespace ks::engine {
namespace {

py::list copyOf(const py::handle& list) { return py::reinterpret_steal<py::list>(PySequence_List(list.ptr())); }

std::string shortRepr(const py::handle& h) {
  std::string s = py::repr(h).cast<std::string>();
  return s.size() > 120 ? s.substr(0, 117) + "..." : s;
}

// Differences between two lists of a sys attribute, as "name: added X" / "removed X" / "reordered".
void listChanges(const char* name, const py::list& before, const py::handle& now, bool shadows,
                 std::vector<ImportChange>& out) {
  const py::list after = copyOf(now);
  if (before.equal(after)) return;
  bool itemChange = false;
  for (py::handle item : after)
    if (!before.contains(item)) {
      out.push_back({std::string(name) + ": added " + shortRepr(item), shadows});
      itemChange = true;
    }
  for (py::handle item : before)
    if (!after.contains(item)) {
      out.push_back({std::string(name) + ": removed " + shortRepr(item), shadows});
      itemChange = true;
    }
  if (!itemChange) out.push_back({std::string(name) + ": reordered", shadows});
}

}  // namespace

ImportState ImportState::take() {
  ImportState s;
  const py::module_ sys = py::module_::import("sys");
  s.path_ = copyOf(sys.attr("path"));
  s.metaPath_ = copyOf(sys.attr("meta_path"));
  s.pathHooks_ = copyOf(sys.attr("path_hooks"));
  s.modules_ = py::reinterpret_steal<py::dict>(PyDict_Copy(sys.attr("modules").ptr()));  // a copy, not sys.modules
  return s;
}

std::vector<ImportChange> ImportState::changes() const {
  std::vector<ImportChange> out;
  const py::module_ sys = py::module_::import("sys");
  listChanges("sys.path", path_, sys.attr("path"), false, out);
  listChanges("sys.meta_path", metaPath_, sys.attr("meta_path"), true, out);
  listChanges("sys.path_hooks", pathHooks_, sys.attr("path_hooks"), true, out);
  const py::dict modules = sys.attr("modules");
  for (auto [name, module] : modules_) {
    if (!modules.contains(name)) {
      out.push_back({"sys.modules[" + shortRepr(name) + "] removed", true});
      continue;
    }
    const py::handle now = modules[name];
    if (!now.is(module))
      out.push_back({"sys.modules[" + shortRepr(name) + "] replaced by " + py::str(py::type::of(now).attr("__qualname__")).cast<std::string>() +
                         " " + shortRepr(py::getattr(now, "__name__", py::none())),
                     true});
  }
  return out;
}

void ImportState::restore() const {
  const py::module_ sys = py::module_::import("sys");
  for (const auto& [attr, saved] : {std::pair<const char*, const py::list*>{"path", &path_},
                                    {"meta_path", &metaPath_},
                                    {"path_hooks", &pathHooks_}}) {
    py::list live = sys.attr(attr);
    if (live.equal(*saved)) continue;
    live.attr("clear")();
    live.attr("extend")(*saved);
  }
  py::dict modules = sys.attr("modules");
  for (auto [name, module] : modules_)
    if (PyDict_GetItem(modules.ptr(), name.ptr()) != module.ptr()) modules[name] = module;  // borrowed, no error
}

}  // namespace ks::engine
