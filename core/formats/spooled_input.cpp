#include "core/formats/spooled_input.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <system_error>
#include <vector>

namespace ks {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

}  // namespace

bool needsSpooling(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;  // the reader names the problem
  if (S_ISDIR(st.st_mode)) return false;
  if (S_ISREG(st.st_mode)) return st.st_size == 0 && path.string().starts_with("/proc/");
  return S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISSOCK(st.st_mode);
}

SpooledInput::SpooledInput(const std::filesystem::path& path) {
  std::error_code ec;
  std::string pattern = (std::filesystem::temp_directory_path(ec) / "kscope-input-XXXXXX").string();
  if (ec || !::mkdtemp(pattern.data())) {
    problem_ = std::string("cannot make a temporary folder to read it into: ") + std::strerror(errno);
    return;
  }
  folder_ = pattern;
  std::filesystem::path name = path.filename();
  if (name.empty() || name == "." || name == "..") name = "input";
  const std::filesystem::path target = folder_ / name;
  FilePtr in(std::fopen(path.c_str(), "rb"));
  if (!in) {
    problem_ = std::strerror(errno);
    return;
  }
  FilePtr out(std::fopen(target.c_str(), "wb"));
  if (!out) {
    problem_ = "cannot write " + target.string() + ": " + std::strerror(errno);
    return;
  }
  std::vector<char> block(std::size_t{1} << 20);
  while (true) {
    const std::size_t got = std::fread(block.data(), 1, block.size(), in.get());
    if (got > 0 && std::fwrite(block.data(), 1, got, out.get()) != got) {
      problem_ = "cannot write " + target.string() + ": " + std::strerror(errno);
      return;
    }
    if (got < block.size()) {
      if (std::ferror(in.get())) {
        problem_ = std::string("read error: ") + std::strerror(errno);
        return;
      }
      if (std::feof(in.get())) break;
    }
  }
  if (std::fclose(out.release()) != 0) {
    problem_ = "cannot write " + target.string() + ": " + std::strerror(errno);
    return;
  }
  copy_ = target;
}

SpooledInput::~SpooledInput() {
  std::error_code ec;
  if (!folder_.empty()) std::filesystem::remove_all(folder_, ec);
}

}  // namespace ks
