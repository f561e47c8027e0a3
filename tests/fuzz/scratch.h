#pragma once
// The readers take a path, so a fuzz target writes the input's bytes to a file in a scratch folder of its
// own process (libFuzzer's -jobs/-fork run several processes) and hands the reader that file or the folder
// around it. The folder is made on first use under $TMPDIR (else /tmp) and removed when the process exits.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <unistd.h>

namespace ks::fuzz {

inline const std::filesystem::path& scratch() {
  static const std::filesystem::path folder = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/kscope-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data())) std::abort();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch(), ec);
    });
    return std::filesystem::path(pattern);
  }();
  return folder;
}

// Writes `text` to scratch()/relative (making its folders) and returns the full path.
inline std::filesystem::path writeFile(const std::filesystem::path& relative, std::string_view text) {
  const std::filesystem::path path = scratch() / relative;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!out) std::abort();  // the scratch disk is full: not a finding of the reader
  return path;
}

inline std::string_view bytes(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace ks::fuzz
