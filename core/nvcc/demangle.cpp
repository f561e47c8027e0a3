#include "core/nvcc/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace ks::nvcc {

std::string demangle(const std::string& symbol) {
  if (symbol.rfind("_Z", 0) != 0) return symbol;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status),
                                             std::free);
  return status == 0 && out ? std::string(out.get()) : symbol;
}

std::string demangleQuoted(const std::string& text) {
  std::string out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t open = text.find("'_Z", pos);
    std::size_t close = open == std::string::npos ? open : text.find('\'', open + 1);
    if (close == std::string::npos) break;
    out.append(text, pos, open - pos);
    out += "'" + demangle(text.substr(open + 1, close - open - 1)) + "'";
    pos = close + 1;
  }
  out.append(text, pos, std::string::npos);
  return out;
}

}  // namespace ks::nvcc
