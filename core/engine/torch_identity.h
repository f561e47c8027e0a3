#pragma once
// The torch functions and module methods a reference program may call (for slowed-reference), remembered by
// identity before any program loads: the public functions of torch, torch.nn.functional, torch.linalg,
// torch.fft and torch.special, the methods of torch.Tensor, and the methods defined by every nn.Module class
// torch.nn exports (forward, _conv_forward, ...) and by nn.Module itself. A candidate that replaces one (a
// slower torch.matmul, a Conv2d.forward that sleeps) is found by comparing again and the original is put
// back, so the reference never runs under it. The clocks and comparison functions are clock_identity.h's.
//
// Which of them the reference calls: one reference call traced with sys.setprofile before the candidate's
// program is imported (`traceReference`), so a replacement can be named as one the reference runs.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace ks::engine {

struct TorchReplacement {
  std::string name;         // "torch.matmul", "torch.nn.Conv2d.forward"
  std::string replacement;  // the replacing object's qualified name
  std::string file;         // where it is defined ("" for builtins)
  int line = 0;
  bool referenceCalls = false;  // the traced reference call ran the original
};

class TorchIdentity {
 public:
  static TorchIdentity take();  // needs the embedded Python and torch

  // Runs `call` under sys.setprofile and remembers which of the watched originals it ran.
  void traceReference(const pybind11::object& call);
  std::vector<TorchReplacement> replaced() const;
  void restore() const;
  std::size_t size() const;

 private:
  pybind11::object snapshot_;  // the helper's snapshot (a list of watched entries)
  pybind11::object called_;    // the traced call's identities (a set), or None
};

}  // namespace ks::engine
