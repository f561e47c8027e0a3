#pragma once
// Inputs that can be read only once: a pipe or FIFO (`kscope summary <(zcat run.jsonl.gz)`, /dev/stdin) and
// files whose size says 0 but that have content (/proc, /sys). Detecting the format reads the start of the
// input and the reader reads it again, so such an input is copied once into a private temporary file and
// read from there; what the user sees still names the path they gave.
#include <filesystem>
#include <optional>
#include <string>

namespace ks {

// True for a path that is neither a folder nor a regular file with a size (FIFO, character device, socket,
// or a regular file reporting 0 bytes, as /proc files do).
bool needsSpooling(const std::filesystem::path& path);

// A copy of a read-once input in a fresh private folder under the system's temporary folder; the folder is
// removed with the object. The copy keeps the input's file name, so its extension still tells its format.
class SpooledInput {
 public:
  // Reads `path` to its end. On failure, copy() is empty and problem() says why.
  explicit SpooledInput(const std::filesystem::path& path);
  ~SpooledInput();
  SpooledInput(const SpooledInput&) = delete;
  SpooledInput& operator=(const SpooledInput&) = delete;

  const std::filesystem::path& copy() const { return copy_; }
  const std::string& problem() const { return problem_; }

 private:
  std::filesystem::path folder_, copy_;
  std::string problem_;
};

}  // namespace ks
