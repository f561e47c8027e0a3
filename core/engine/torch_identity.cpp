#include "core/engine/torch_identity.h"

#include <pybind11/eval.h>

namespace py = pybind11;

namespace ks::engine {
namespace {

// Snapshot and comparison in Python: some thousands of attributes, read through the objects' own dicts (a
// module's __getattr__ or a class's descriptors never run). Entries: (name, owner, attribute, original).
constexpr const char* kHelpers = R"PY(
import sys
import types

_MISSING = object()
_CLOCKS_AND_CHECKERS = {"allclose", "isclose", "equal", "eq", "__eq__", "__ne__", "__bool__"}


def _owners():
    import torch
    import torch.nn.functional
    owners = [("torch", torch, True), ("torch.nn.functional", torch.nn.functional, True),
              ("torch.Tensor", torch.Tensor, False), ("torch.nn.Module", torch.nn.Module, False)]
    for name in ("linalg", "fft", "special"):
        module = getattr(torch, name, None)
        if isinstance(module, types.ModuleType):
            owners.append(("torch." + name, module, True))
    for name, cls in sorted(vars(torch.nn).items()):
        if isinstance(cls, type) and issubclass(cls, torch.nn.Module) and cls is not torch.nn.Module:
            owners.append(("torch.nn." + name, cls, False))
    return owners


def _resolve(owner, attribute):
    # The attribute as an access finds it, without running descriptors or a module's __getattr__.
    if isinstance(owner, type):
        for klass in owner.__mro__:
            if klass is not object and attribute in vars(klass):
                return vars(klass)[attribute]
        return _MISSING
    return vars(owner).get(attribute, _MISSING)


def snapshot():
    entries = []
    for owner_name, owner, public_only in _owners():
        if owner_name == "torch.Tensor":  # its C methods live in a base class (torch._C._TensorBase)
            names = {a for klass in owner.__mro__ if klass is not object for a in vars(klass)}
        else:
            names = list(vars(owner))
        for attribute in sorted(names):
            if public_only and attribute.startswith("_"):
                continue
            if attribute in _CLOCKS_AND_CHECKERS and owner_name in ("torch", "torch.Tensor"):
                continue
            value = _resolve(owner, attribute)
            if isinstance(value, (type, types.ModuleType)) or not (
                    callable(value) or isinstance(value, (staticmethod, classmethod))):
                continue
            own = not isinstance(owner, type) or attribute in vars(owner)
            entries.append((owner_name + "." + attribute, owner, attribute, value, own))
    return entries


def _key(value):
    # What a profile event names: the code of a Python function, the builtin itself otherwise.
    code = getattr(value, "__code__", None)
    if code is None and isinstance(value, (staticmethod, classmethod)):
        code = getattr(value.__func__, "__code__", None)
    return ("code", id(code)) if code is not None else ("object", id(value))


def trace(call):
    import torch
    seen = set()

    def profile(frame, event, arg):
        if event == "call":
            seen.add(("code", id(frame.f_code)))
        elif event == "c_call":
            seen.add(("object", id(arg)))
            owner = getattr(arg, "__self__", None)
            if isinstance(owner, torch.Tensor):
                seen.add(("tensor-method", getattr(arg, "__name__", "")))

    before = sys.getprofile()
    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(before)
    return seen


def _torch_own_wrapper(now, original):
    # torch wraps some of its functions itself on a lazy import: `import torch._dynamo` (which
    # torch.compile, load_inline's users and many libraries trigger) runs
    # `torch.manual_seed = torch._disable_dynamo(torch.manual_seed)`, and torch.compile's mutation guard
    # replaces nn.Module.__init__ and __setstate__ with closures that call the originals. Such a wrapper holds
    # the very original (functools.wraps' __wrapped__, or a closure cell) and its code is torch's own. Not
    # reported; still put back (restore), so a forged one cannot slow the reference either.
    import os
    import torch
    code = getattr(now, "__code__", None)
    if code is None:
        return False
    cells = []
    for cell in getattr(now, "__closure__", None) or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:  # an empty cell
            pass
    if getattr(now, "__wrapped__", None) is not original and not any(c is original for c in cells):
        return False
    package = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    return os.path.abspath(code.co_filename).startswith(package)


def replaced(entries, called):
    out = []
    for name, owner, attribute, original, own in entries:
        now = _resolve(owner, attribute)
        if now is original or _torch_own_wrapper(now, original):
            continue
        runs = False
        if called is not None:
            runs = _key(original) in called or (
                name.startswith("torch.Tensor.") and ("tensor-method", attribute) in called)
        shown = "(removed)" if now is _MISSING else getattr(now, "__qualname__", type(now).__qualname__)
        code = getattr(now, "__code__", None)
        out.append((name, str(shown), code.co_filename if code else "", code.co_firstlineno if code else 0, runs))
    return out


def restore(entries):
    for name, owner, attribute, original, own in entries:
        if _resolve(owner, attribute) is original:
            continue
        if own:
            setattr(owner, attribute, original)
        elif attribute in vars(owner):  # set on the class over the base's: remove it
            delattr(owner, attribute)
)PY";

py::dict& helpers() {
  static py::dict* h = [] {
    auto* d = new py::dict();  // lives as long as the interpreter (never destroyed after it)
    py::exec(kHelpers, *d);
    return d;
  }();
  return *h;
}

}  // namespace

TorchIdentity TorchIdentity::take() {
  TorchIdentity t;
  t.snapshot_ = helpers()["snapshot"]();
  t.called_ = py::none();
  return t;
}

void TorchIdentity::traceReference(const py::object& call) { called_ = helpers()["trace"](call); }

std::vector<TorchReplacement> TorchIdentity::replaced() const {
  std::vector<TorchReplacement> out;
  if (!snapshot_) return out;
  for (py::handle item : helpers()["replaced"](snapshot_, called_)) {
    const py::tuple t = py::reinterpret_borrow<py::tuple>(item);
    out.push_back({t[0].cast<std::string>(), t[1].cast<std::string>(), t[2].cast<std::string>(), t[3].cast<int>(),
                   t[4].cast<bool>()});
  }
  return out;
}

void TorchIdentity::restore() const {
  if (snapshot_) helpers()["restore"](snapshot_);
}

std::size_t TorchIdentity::size() const { return snapshot_ ? py::len(snapshot_) : 0; }

}  // namespace ks::engine
