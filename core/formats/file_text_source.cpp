#include "core/formats/file_text_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/json/json_fields.h"

namespace ks {
namespace {

std::int64_t modifiedNs(const struct stat& st) {
  return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

}  // namespace

std::optional<std::string> decodeJsonStringBody(std::string_view body, std::string& problem) {
  std::string quoted;
  quoted.reserve(body.size() + 2);
  quoted += '"';
  quoted += body;
  quoted += '"';
  try {
    Json value = Json::parse(quoted);
    if (!value.is_string()) {
      problem = "not a JSON string";
      return std::nullopt;
    }
    return std::move(value.get_ref<std::string&>());
  } catch (const Json::exception& e) {
    problem = e.what();
    return std::nullopt;
  }
}

JsonStringFile::JsonStringFile(int fd, std::string shownPath) : fd_(fd), shownPath_(std::move(shownPath)) {}

JsonStringFile::~JsonStringFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::shared_ptr<JsonStringFile> JsonStringFile::open(const std::filesystem::path& path, std::string& problem,
                                                     std::string shownPath) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    problem = std::strerror(errno);
    return nullptr;
  }
  std::shared_ptr<JsonStringFile> file(new JsonStringFile(fd, shownPath.empty() ? path.string() : shownPath));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    problem = std::strerror(errno);
    return nullptr;
  }
  file->size_ = st.st_size;
  file->modifiedNs_ = modifiedNs(st);
  return file;
}

std::string JsonStringFile::text(std::uint64_t offset, std::uint32_t length) const {
  // A file that only grew (an RL job appending candidates) still holds the text where it was; one rewritten
  // in place is caught by the quotes around the string no longer being there (or by reading past its end).
  const auto changed = [&] {
    return TextReadError(shownPath_ + " changed since it was opened; open it again to read its programs");
  };
  struct stat st {};
  if (::fstat(fd_, &st) != 0)
    throw TextReadError("cannot read the program back from " + shownPath_ + ": " + std::strerror(errno));
  if (st.st_size < size_ || (st.st_size == size_ && modifiedNs(st) != modifiedNs_) || offset == 0) throw changed();
  std::string quoted(std::size_t{length} + 2, '\0');  // with the quotes on both sides
  std::size_t done = 0;
  while (done < quoted.size()) {
    const ssize_t got =
        ::pread(fd_, quoted.data() + done, quoted.size() - done, static_cast<off_t>(offset - 1 + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0)
      throw TextReadError("cannot read the program back from " + shownPath_ + " at byte " +
                          std::to_string(offset) + ": " + std::strerror(errno));
    if (got == 0) throw changed();
    done += static_cast<std::size_t>(got);
  }
  if (quoted.front() != '"' || quoted.back() != '"') throw changed();
  std::string problem;
  std::optional<std::string> decoded =
      decodeJsonStringBody(std::string_view(quoted).substr(1, length), problem);
  if (!decoded)
    throw TextReadError("the program at byte " + std::to_string(offset) + " of " + shownPath_ +
                        " is not a JSON string: " + problem);
  return std::move(*decoded);
}

}  // namespace ks
