#include "views/logic/baseline_label.h"

#include <array>
#include <utility>

namespace ks {

QString baselineLabel(const std::string& baseline) {
  static const std::array<std::pair<const char*, const char*>, 5> known{{
      {"default", "Speedup"},
      {"torch_compile_default", "vs compile"},
      {"torch_compile_reduce_overhead", "vs compile (RO)"},
      {"cuda_graph", "vs CUDA graph"},
      {"cudnn", "vs cuDNN"},
  }};
  for (const auto& [name, label] : known)
    if (baseline == name) return QString::fromUtf8(label);
  return QStringLiteral("vs %1").arg(QString::fromStdString(baseline));
}

}  // namespace ks
