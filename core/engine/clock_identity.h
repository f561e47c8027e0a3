#pragma once
// The timing and synchronization functions a Python harness would read its clocks through (time.perf_counter,
// time.time, torch.cuda.synchronize, torch.cuda.Event.elapsed_time / record, ...) and the comparison
// functions a Python correctness check would use (torch.allclose, torch.testing.assert_close,
// Tensor.__eq__ / allclose / equal, ...), remembered by identity before any program loads. A program that
// replaces one is found by comparing again (docs/hacks.md, timer-patch and checker-patch); the originals are
// then put back, so neither the other model nor a later request runs under the replacement. The runner's
// own clocks and output comparison are C++ and use none of these.
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

namespace ks::engine {

struct ClockReplacement {
  std::string name;         // "time.perf_counter"
  std::string replacement;  // the replacing object's qualified name
  std::string file;         // where the replacement is defined ("" for builtins and objects without code)
  int line = 0;
  bool checker = false;  // a comparison function (checker-patch), not a clock (timer-patch)
};

class ClockIdentity {
 public:
  static ClockIdentity take();  // needs the embedded Python; functions this torch lacks are left out

  std::vector<ClockReplacement> replaced() const;  // those whose object is not the remembered one
  void restore() const;                            // puts every remembered object back

 private:
  struct Entry {
    std::string name;
    pybind11::object owner;  // the module or class holding it
    std::string attribute;
    pybind11::object original;
    bool checker = false;
  };
  std::vector<Entry> entries_;
};

}  // namespace ks::engine
