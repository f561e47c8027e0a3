#pragma once
// Short labels for baseline names, for the task table's column headers and selectors
// ("torch_compile_default" -> "vs compile"). QtCore only, so the item models below the widgets can use it.
#include <QString>
#include <string>

namespace ks {

QString baselineLabel(const std::string& baseline);

}  // namespace ks
