#include "core/sandbox/build_seals.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>

#include "core/hash/sha256.h"

namespace ks::sandbox {
namespace {

namespace fs = std::filesystem;

struct SealLog {
  std::mutex mutex;
  int fd = -1;
  fs::path path;
};

SealLog& sealLog() {
  static SealLog log;
  return log;
}

std::optional<std::string> fileHash(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  hash::Sha256 h;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0)
    h.update(std::string_view(buf, std::size_t(in.gcount())));
  return h.hexDigest();
}

}  // namespace

fs::path buildSealsPath(const fs::path& cacheRoot) {
  fs::path root = cacheRoot.lexically_normal();
  if (root.filename().empty()) root = root.parent_path();
  return root.parent_path() / (root.filename().string() + "-seals.log");
}

std::string openBuildSeals(const fs::path& log) {
  SealLog& s = sealLog();
  std::lock_guard lock(s.mutex);
  std::error_code ec;
  fs::create_directories(log.parent_path(), ec);
  const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot open the build cache's seal log " + log.string() + ": " + std::strerror(errno);
  if (s.fd >= 0) ::close(s.fd);
  s.fd = fd;
  s.path = log;
  return "";
}

bool buildSealsOpen() {
  std::lock_guard lock(sealLog().mutex);
  return sealLog().fd >= 0;
}

void closeBuildSeals() {
  SealLog& s = sealLog();
  std::lock_guard lock(s.mutex);
  if (s.fd >= 0) ::close(s.fd);
  s.fd = -1;
  s.path.clear();
}

std::string sealFile(const fs::path& file) {
  SealLog& s = sealLog();
  std::lock_guard lock(s.mutex);
  if (s.fd < 0) return "";
  const std::string path = fs::absolute(file).lexically_normal().string();
  if (path.find('\n') != std::string::npos) return "a path with a line break cannot be sealed: " + path;
  const auto digest = fileHash(path);
  if (!digest) return "cannot read " + path + " to seal it";
  const std::string line =
      *digest + " " + path + "\n";  // one write: appends of concurrent runners stay whole
  if (::write(s.fd, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    return "cannot write the seal of " + path + ": " + std::strerror(errno);
  return "";
}

bool isSealed(const fs::path& file, std::string* why) {
  SealLog& s = sealLog();
  fs::path log;
  {
    std::lock_guard lock(s.mutex);
    if (s.fd < 0) return true;
    log = s.path;
  }
  const std::string path = fs::absolute(file).lexically_normal().string();
  std::ifstream in(log);
  std::string line, sealed;
  while (std::getline(in, line))
    if (line.size() > 65 && line[64] == ' ' && line.compare(65, std::string::npos, path) == 0)
      sealed = line.substr(0, 64);
  if (sealed.empty()) {
    if (why) *why = path + " has no seal: no runner published it";
    return false;
  }
  const auto digest = fileHash(path);
  if (!digest || *digest != sealed) {
    if (why) *why = path + " changed after it was published (its sha256 is not the sealed one)";
    return false;
  }
  return true;
}

}  // namespace ks::sandbox
