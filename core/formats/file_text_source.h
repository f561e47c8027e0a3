#pragma once
// The open file a run's programs are read back from (core/model/program_text.h): JSON string literals
// (their text between the quotes) at offsets the run-format reader recorded. The file stays open for as long
// as a ProgramText names it, so a file removed or replaced under its path after loading still reads (and a
// spooled copy of a pipe can be deleted at once), and so does one that only grew (a job appending lines); a
// file rewritten in place since it was opened (shorter, the same size but newer, or the string's quotes no
// longer where they were) is refused rather than read wrong.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/model/program_text.h"

namespace ks {

class JsonStringFile final : public TextSource {
 public:
  // Opens `path`; nullptr with `problem` set when it cannot be opened. `shownPath` is what messages name
  // (the user's path when `path` is a spooled copy); empty: `path`.
  static std::shared_ptr<JsonStringFile> open(const std::filesystem::path& path, std::string& problem,
                                              std::string shownPath = {});
  ~JsonStringFile() override;
  JsonStringFile(const JsonStringFile&) = delete;
  JsonStringFile& operator=(const JsonStringFile&) = delete;

  int descriptor() const { return fd_; }
  // Reads [offset, offset + length) and decodes it as the inside of a JSON string. Throws TextReadError.
  std::string text(std::uint64_t offset, std::uint32_t length) const override;

 private:
  JsonStringFile(int fd, std::string shownPath);
  int fd_ = -1;
  std::string shownPath_;
  off_t size_ = 0;
  std::int64_t modifiedNs_ = 0;
};

// Decodes the inside of a JSON string literal (without its quotes) as a JSON reader would; nullopt and
// `problem` set when it is not one.
std::optional<std::string> decodeJsonStringBody(std::string_view body, std::string& problem);

}  // namespace ks
