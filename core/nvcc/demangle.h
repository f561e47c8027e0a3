#pragma once
// Itanium C++ ABI demangling of kernel symbols ("_Z5heavyPfPKfi" -> "heavy(float*, float const*, int)").
#include <string>

namespace ks::nvcc {

// The demangled name, or `symbol` unchanged when it is not a mangled C++ name (extern "C" kernels).
std::string demangle(const std::string& symbol);

// `text` with every quoted mangled name ('_Z...') replaced by its demangled form.
std::string demangleQuoted(const std::string& text);

}  // namespace ks::nvcc
