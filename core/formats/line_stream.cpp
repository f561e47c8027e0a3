#include "core/formats/line_stream.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "core/formats/utf8.h"

namespace ks {
namespace {

constexpr std::size_t kBlockBytes = std::size_t{4} << 20;
constexpr std::size_t kBinaryProbeBytes = std::size_t{64} << 10;

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

// "1000 bytes", "256 MiB"
std::string sizeText(std::size_t bytes) {
  if (bytes < (std::size_t{1} << 20)) return std::to_string(bytes) + " bytes";
  return std::to_string(bytes >> 20) + " MiB";
}

bool isBlank(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c == ' ' || c == '\t' || c == '\r'; });
}

}  // namespace

std::string fileOpenProblem(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    return ec && ec != std::errc::no_such_file_or_directory ? ec.message() : "no such file or folder";
  if (std::filesystem::is_directory(status)) return "is a folder; expected a file";
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) return std::strerror(errno);
  return {};
}

namespace {

LineStreamResult streamFile(FilePtr file, std::optional<std::uintmax_t> knownSize, const LoadOptions& options,
                            IssueList& issues,
                            const std::function<bool(std::span<const TextLine>)>& onBlock) {
  LineStreamResult result;
  const std::error_code ec = knownSize ? std::error_code() : std::make_error_code(std::errc::io_error);
  const std::uintmax_t fileSize = knownSize.value_or(0);
  std::setvbuf(file.get(), nullptr, _IONBF, 0);  // we read in large blocks ourselves

  const std::size_t maxLine = std::max<std::size_t>(options.maxLineBytes, 1);
  const std::size_t bufferCap = maxLine + 1;  // the longest accepted line plus its '\n'
  // A block, or less for a file known to be smaller (a few bytes past its size, so that the first read sees
  // its end): opening a 1 KB file used to zero-fill 16 MiB. The buffer still grows for a longer line.
  std::size_t firstBlock = std::min(kBlockBytes, bufferCap);
  if (!ec && fileSize > 0 && fileSize < firstBlock)
    firstBlock = std::min(firstBlock, static_cast<std::size_t>(fileSize) + 64);
  std::vector<char> buffer(firstBlock);
  std::size_t filled = 0;
  std::uint64_t base = 0;      // file offset of buffer[0]
  std::uint64_t consumed = 0;  // bytes of the file read so far
  int lineNumber = 0;          // lines completed so far
  bool skippingLongLine = false;
  bool firstRead = true;
  std::vector<TextLine> lines;

  while (true) {
    if (options.cancel && options.cancel->load()) {
      issues.warning(lineNumber + 1, "loading was cancelled here; the rest of the file was not read");
      break;
    }
    const std::size_t got = std::fread(buffer.data() + filled, 1, buffer.size() - filled, file.get());
    if (got == 0 && std::ferror(file.get())) {
      issues.error(lineNumber + 1, std::string("read error: ") + std::strerror(errno));
      break;
    }
    const bool atEnd = got == 0 || std::feof(file.get());
    filled += got;
    consumed += got;

    std::size_t start = 0;
    if (firstRead) {
      firstRead = false;
      const std::string_view probe(buffer.data(), std::min(filled, kBinaryProbeBytes));
      if (auto bad = looksBinary(probe, /*allowCutEnd=*/filled > probe.size() || !atEnd)) {
        issues.error(0, "binary file: " + bad->what + " at byte " + std::to_string(bad->offset) +
                            "; expected UTF-8 text, one JSON object a line");
        return result;
      }
      if (filled >= 3 && std::memcmp(buffer.data(), "\xEF\xBB\xBF", 3) == 0) start = 3;  // UTF-8 BOM
      result.opened = true;
    }

    lines.clear();
    while (start < filled) {
      const char* newline =
          static_cast<const char*>(std::memchr(buffer.data() + start, '\n', filled - start));
      if (!newline && !atEnd) break;  // an incomplete line: keep it for the next block
      const std::size_t end = newline ? static_cast<std::size_t>(newline - buffer.data()) : filled;
      ++lineNumber;
      if (skippingLongLine) {
        skippingLongLine = false;
      } else {
        std::string_view text(buffer.data() + start, end - start);
        if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
        if (!isBlank(text)) lines.push_back(TextLine{text, lineNumber, newline == nullptr, base + start});
      }
      start = newline ? end + 1 : filled;
    }
    result.nonBlankLines += lines.size();
    if (!lines.empty() && !onBlock(lines)) break;
    if (options.progress && fileSize > 0)
      options.progress(std::min(1.0, static_cast<double>(consumed) / static_cast<double>(fileSize)));
    if (atEnd) break;

    // Keep the incomplete last line; grow the buffer for a long line, or give up on a too long one.
    const std::size_t tail = filled - start;
    std::memmove(buffer.data(), buffer.data() + start, tail);
    base += start;
    filled = skippingLongLine ? 0 : tail;
    if (skippingLongLine) base = consumed;
    if (filled == buffer.size()) {
      if (buffer.size() >= bufferCap) {
        issues.error(lineNumber + 1, "line is longer than " + sizeText(maxLine) + "; skipped");
        skippingLongLine = true;
        filled = 0;
        base = consumed;
      } else {
        buffer.resize(std::min(buffer.size() * 2, bufferCap));
      }
    } else if (buffer.size() > kBlockBytes && filled <= kBlockBytes) {
      buffer.resize(kBlockBytes);  // back to normal after a long line
      buffer.shrink_to_fit();
    }
  }
  return result;
}

}  // namespace

LineStreamResult streamLines(const std::filesystem::path& path, const LoadOptions& options, IssueList& issues,
                             const std::function<bool(std::span<const TextLine>)>& onBlock) {
  if (std::string problem = fileOpenProblem(path); !problem.empty()) {
    issues.error(0, "cannot read: " + problem);
    return {};
  }
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    issues.error(0, std::string("cannot read: ") + std::strerror(errno));
    return {};
  }
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  return streamFile(std::move(file), ec ? std::nullopt : std::optional<std::uintmax_t>(size), options, issues,
                    onBlock);
}

LineStreamResult streamLines(int fd, const std::filesystem::path& path, const LoadOptions& options,
                             IssueList& issues,
                             const std::function<bool(std::span<const TextLine>)>& onBlock) {
  struct stat st {};
  const int own = ::dup(fd);
  FilePtr file(own >= 0 ? ::fdopen(own, "rb") : nullptr);
  if (!file || ::fstat(fd, &st) != 0 || ::lseek(own, 0, SEEK_SET) != 0) {
    if (own >= 0 && !file) ::close(own);
    issues.error(0, std::string("cannot read: ") + std::strerror(errno));
    return {};
  }
  if (S_ISDIR(st.st_mode)) {
    issues.error(0, "cannot read: is a folder; expected a file");
    return {};
  }
  (void)path;
  return streamFile(std::move(file), static_cast<std::uintmax_t>(st.st_size), options, issues, onBlock);
}

}  // namespace ks
