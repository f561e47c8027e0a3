#pragma once
// Short labels for baseline names, for column headers and selectors ("torch_compile_default" -> "vs
// compile").
#include <QString>
#include <string>

namespace ks {

QString baselineLabel(const std::string& baseline);

}  // namespace ks
