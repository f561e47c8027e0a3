#include "core/engine/torch_settings.h"

#include <pybind11/eval.h>

#include <algorithm>
#include <cstdio>

namespace py = pybind11;

namespace ks::engine {
namespace {

struct Setting {
  const char* name;      // an expression reading it, with `torch` in scope
  const char* assign;    // a statement setting it to `v`
  bool perModel = true;  // switched between the models' own values before each call
};

constexpr Setting kSettings[] = {
    {"torch.backends.cuda.matmul.allow_tf32", "torch.backends.cuda.matmul.allow_tf32 = v"},
    {"torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
     "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = v"},
    {"torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
     "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = v"},
    {"torch.backends.cudnn.allow_tf32", "torch.backends.cudnn.allow_tf32 = v"},
    {"torch.backends.cudnn.benchmark", "torch.backends.cudnn.benchmark = v"},
    {"torch.backends.cudnn.deterministic", "torch.backends.cudnn.deterministic = v"},
    {"torch.backends.cudnn.enabled", "torch.backends.cudnn.enabled = v"},
    {"torch.get_float32_matmul_precision()", "torch.set_float32_matmul_precision(v)"},
    // torch >= 2.9 keeps the same switches per backend ("ieee", "tf32", "bf16", "none" = as the level
    // above); the legacy ones above read and write them. Listed after them, the general before the
    // particular, so that a restore ends with exactly the values it read. Older torch has none of these
    // (reading one raises, and it is left out).
    {"torch.backends.fp32_precision", "torch.backends.fp32_precision = v"},
    {"torch.backends.cuda.matmul.fp32_precision", "torch.backends.cuda.matmul.fp32_precision = v"},
    {"torch.backends.cudnn.fp32_precision", "torch.backends.cudnn.fp32_precision = v"},
    {"torch.backends.cudnn.conv.fp32_precision", "torch.backends.cudnn.conv.fp32_precision = v"},
    {"torch.backends.cudnn.rnn.fp32_precision", "torch.backends.cudnn.rnn.fp32_precision = v"},
    {"torch.backends.mkldnn.fp32_precision", "torch.backends.mkldnn.fp32_precision = v"},
    {"torch.backends.mkldnn.matmul.fp32_precision", "torch.backends.mkldnn.matmul.fp32_precision = v"},
    {"torch.backends.mkldnn.conv.fp32_precision", "torch.backends.mkldnn.conv.fp32_precision = v"},
    {"torch.backends.mkldnn.rnn.fp32_precision", "torch.backends.mkldnn.rnn.fp32_precision = v"},
    {"torch.are_deterministic_algorithms_enabled()", "torch.use_deterministic_algorithms(v)"},
    {"torch.get_default_dtype()", "torch.set_default_dtype(v)"},
    {"torch.get_default_device()", "torch.set_default_device(v)"},
    {"torch.get_num_threads()", "torch.set_num_threads(v)"},
    {"torch.is_grad_enabled()", "torch.set_grad_enabled(v)", false},
};

py::dict scope() {
  py::dict d;
  d["torch"] = py::module_::import("torch");
  return d;
}

}  // namespace

TorchSettings TorchSettings::read() {
  TorchSettings s;
  py::dict globals = scope();
  for (std::size_t i = 0; i < std::size(kSettings); ++i) {
    try {
      s.values_.emplace_back(i, py::eval(kSettings[i].name, globals));
    } catch (py::error_already_set&) {
      // Not in this torch version.
    }
  }
  return s;
}

std::vector<std::string> TorchSettings::changesIn(const TorchSettings& now) const {
  std::vector<std::string> out;
  for (const auto& [i, before] : values_)
    for (const auto& [j, after] : now.values_)
      if (i == j && !before.equal(after))
        out.push_back(std::string(kSettings[i].name) + ": " + py::repr(before).cast<std::string>() + " -> " +
                      py::repr(after).cast<std::string>());
  return out;
}

std::vector<std::pair<std::string, std::string>> TorchSettings::values() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [i, value] : values_) out.emplace_back(kSettings[i].name, py::repr(value).cast<std::string>());
  return out;
}

void TorchSettings::restore() const { restoreSettings(false); }

void TorchSettings::restorePerModel() const { restoreSettings(true); }

void TorchSettings::restoreSettings(bool perModelOnly) const {
  py::dict globals = scope();
  // Two passes: a setting may be unreadable half-way (torch >= 2.9's get_float32_matmul_precision() raises
  // while the legacy and per-backend switches disagree, as they do between restoring one and the other),
  // and readable again once the rest is back. Only what still fails on the second pass is reported.
  std::vector<std::size_t> failed;
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<std::size_t> again;
    for (std::size_t k = 0; k < values_.size(); ++k) {
      if (pass == 1 && std::find(failed.begin(), failed.end(), k) == failed.end()) continue;
      const auto& [i, value] = values_[k];
      if (perModelOnly && !kSettings[i].perModel) continue;
      try {
        // Only what changed: some setters cost by merely being called (set_default_device installs a
        // TorchFunctionMode that then intercepts every torch call, and would slow every later measurement).
        if (py::eval(kSettings[i].name, globals).equal(value)) continue;
        globals["v"] = value;
        py::exec(kSettings[i].assign, globals);
      } catch (py::error_already_set& e) {
        if (pass == 1)
          std::fprintf(stderr, "kscope-runner: cannot restore %s: %s\n", kSettings[i].name, e.what());
        again.push_back(k);
      }
    }
    failed = std::move(again);
    if (failed.empty()) break;
  }
}

}  // namespace ks::engine
