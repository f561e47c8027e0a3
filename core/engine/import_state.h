#pragma once
// What `import` finds, remembered before any program loads: sys.path, sys.meta_path, sys.path_hooks and the
// object behind every sys.modules entry. A program that edits the search path, installs an import hook, or
// replaces or removes a module already loaded (sys.modules["math"] = wrapper) is found by comparing again
// (docs/hacks.md, module-shadowing); the remembered state is then put back, so neither the other model nor
// a later request imports through the change. Entries added by ordinary imports are not changes.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace ks::engine {

struct ImportChange {
  std::string what;  // "sys.path: inserted '/x/_vendor' at 0", "sys.modules['math'] replaced by _FastMath"
  bool shadows = false;  // a module replaced or removed, or an import hook installed (not only a path)
};

class ImportState {
 public:
  static ImportState take();  // needs the embedded Python

  std::vector<ImportChange> changes() const;
  void restore() const;

 private:
  pybind11::list path_, metaPath_, pathHooks_;  // copies
  pybind11::dict modules_;                      // a copy of sys.modules
};

}  // namespace ks::engine
