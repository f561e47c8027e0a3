#pragma once
// Process-wide torch settings a program can change at import or in forward (TF32, cuDNN benchmark and
// determinism, float32 matmul precision, default dtype and device, CPU threads). They would otherwise leak
// into the reference and into later requests: the engine snapshots them before a request, reports what the
// programs changed, and restores them afterwards. Each model also gets the settings it was constructed
// under before each of its calls (restorePerModel), so a candidate's TF32 switch never reaches the reference.
#include <pybind11/pybind11.h>

#include <string>
#include <utility>
#include <vector>

namespace ks::engine {

class TorchSettings {
 public:
  static TorchSettings read();  // settings this torch does not have are left out
  // "torch.backends.cuda.matmul.allow_tf32: False -> True" for each setting that differs in `now`.
  std::vector<std::string> changesIn(const TorchSettings& now) const;
  // Every setting of this snapshot as (name, Python repr), in the table's order.
  std::vector<std::pair<std::string, std::string>> values() const;
  void restore() const;  // sets each setting that changed back to this snapshot's value (failures: stderr)
  // The same, except grad mode, which the measurement sets for all calls (torch.no_grad()).
  void restorePerModel() const;

 private:
  void restoreSettings(bool perModelOnly) const;
  std::vector<std::pair<std::size_t, pybind11::object>> values_;  // index into the setting table, value
};

}  // namespace ks::engine
