#pragma once
// The version of KernelScope's programs, written in one place (core/version/CMakeLists.txt): the project
// version, and the `git describe` of the tree it was built from when that was a git checkout —
// "0.1.0 (git 8d39538-dirty)".
#include <string>

namespace ks::version {

// "0.1.0" or "0.1.0 (git <describe>)".
const char* string();

// "<program> <string()>", the first line every program prints for --version.
std::string line(const std::string& program);

}  // namespace ks::version
