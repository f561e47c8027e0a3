#include "core/engine/model_pair.h"

#include <map>
#include <memory>

namespace py = pybind11;

namespace ks::engine {

void memoizeInputs(ModelPair& pair, std::size_t budgetBytes) {
  struct Memo {
    std::map<std::int64_t, ModelArgs> bySeed;
    std::size_t bytes = 0;
  };
  auto memo = std::make_shared<Memo>();
  pair.inputs = [make = std::move(pair.inputs), memo, budgetBytes](std::int64_t seed) -> Outcome<ModelArgs> {
    if (auto it = memo->bySeed.find(seed); it != memo->bySeed.end()) {
      manualSeed(seed);
      return cloneArgs(it->second);
    }
    Outcome<ModelArgs> made = make(seed);
    if (const auto* args = std::get_if<ModelArgs>(&made)) {
      std::size_t bytes = 0;
      for (const ModelArg& a : *args)
        if (a.tensor.defined()) bytes += a.tensor.numel() * a.tensor.element_size();
      if (memo->bytes + bytes <= budgetBytes) {
        memo->bySeed.emplace(seed, cloneArgs(*args));
        memo->bytes += bytes;
      }
    }
    return made;
  };
}

void manualSeed(std::int64_t seed) { py::module_::import("torch").attr("manual_seed")(seed); }

protocol::ErrorInfo pairError(const ModelPair& pair, py::error_already_set& error, protocol::ErrorKind kind) {
  return pair.builds ? pair.builds->errorFrom(error, kind, pair.programs)
                     : errorFromPython(error, kind, pair.programs);
}

}  // namespace ks::engine
