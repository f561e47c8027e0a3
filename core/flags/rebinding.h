#pragma once
// Where a program rebinds a named callable: an assignment to it (through any import alias), setattr on its
// owner, unittest.mock.patch("name") or mock.patch.object(owner, "attr"), and sys.modules["module"] = ....
// Shared by the rules whose evidence is a rebinding (timer-patch: clocks; checker-patch: comparisons).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/pysource/py_module.h"

namespace ks {

struct Rebinding {
  std::string name;  // the resolved dotted name rebound ("torch.allclose", "sys.modules['time']")
  int line = 0;
};

// Every rebinding of a dotted name for which `watched` is true; sys.modules["m"] is reported as
// "sys.modules['m']" when watched("sys.modules['m']") is.
std::vector<Rebinding> findRebindings(const py::PyModule& m, const std::function<bool(std::string_view)>& watched);

// The value of a quoted string token text, or "" when it is not one.
std::string unquoteLiteral(std::string_view s);

}  // namespace ks
