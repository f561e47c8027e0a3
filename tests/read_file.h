#pragma once
// A whole file's bytes as a string ("" when it cannot be read): what tests read back of logs, outputs and
// fixtures.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ks::test {

inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace ks::test
