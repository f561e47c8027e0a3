#include "core/supervisor/server_socket.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/hash/sha256.h"

namespace ks::supervisor {
namespace fs = std::filesystem;
namespace {

// A socket's whole path must fit in sockaddr_un::sun_path (108 bytes): a runtime folder too deep for that
// is passed over for /tmp.
constexpr std::size_t kLongestFolder = 70;

fs::path socketFolder() {
  if (const char* runtime = std::getenv("XDG_RUNTIME_DIR"); runtime && *runtime) {
    std::error_code ec;
    const fs::path folder = fs::path(runtime) / "kernelscope";
    if (fs::is_directory(runtime, ec) && folder.string().size() <= kLongestFolder) return folder;
  }
  return fs::path("/tmp") / ("kernelscope-" + std::to_string(getuid()));
}

bool fillAddress(const fs::path& path, sockaddr_un& address, std::string& error) {
  std::memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  const std::string text = path.string();
  if (text.size() >= sizeof address.sun_path) {
    error = "the socket path " + text + " is longer than a Unix socket allows";
    return false;
  }
  std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
  return true;
}

std::string errnoText(const std::string& what) { return what + ": " + std::strerror(errno); }

// A Unix stream socket (close-on-exec) and `path` as its address; -1 and `error` when either cannot be had.
int unixSocket(const fs::path& path, sockaddr_un& address, std::string& error) {
  if (!fillAddress(path, address, error)) return -1;
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) error = errnoText("socket");
  return fd;
}

}  // namespace

fs::path serverSocketPath(const fs::path& runner, const std::string& device, std::uint64_t memoryLimitBytes) {
  std::error_code ec;
  fs::path exe = fs::weakly_canonical(runner, ec);
  if (ec) exe = runner;
  std::string key = exe.string() + "|";
  const auto written = fs::last_write_time(exe, ec);
  if (!ec) key += std::to_string(written.time_since_epoch().count());
  key += "|" + device + "|" + std::to_string(memoryLimitBytes);
  return socketFolder() / ("runner-" + hash::sha256Hex(key).substr(0, 16) + ".sock");
}

int listenAt(const fs::path& path, std::string& error) {
  const fs::path folder = path.parent_path();
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    error = errnoText("cannot create " + folder.string());
    return -1;
  }
  struct stat info {};
  if (::lstat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != getuid() ||
      (info.st_mode & 077) != 0) {
    error = folder.string() + " is not a folder of this user's that only this user can enter";
    return -1;
  }
  std::string ignored;
  if (const int other = connectTo(path, ignored); other >= 0) {
    ::close(other);
    error = "a runner server is already listening at " + path.string();
    return -1;
  }
  ::unlink(path.c_str());  // a socket left by a server that died
  sockaddr_un address;
  const int fd = unixSocket(path, address, error);
  if (fd < 0) return -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 16) != 0) {
    error = errnoText("cannot listen at " + path.string());
    ::close(fd);
    return -1;
  }
  ::chmod(path.c_str(), 0600);
  return fd;
}

int connectTo(const fs::path& path, std::string& error) {
  sockaddr_un address;
  const int fd = unixSocket(path, address, error);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    error = errnoText("no runner server at " + path.string());
    ::close(fd);
    return -1;
  }
  return fd;
}

bool peerIsThisUser(int fd) {
  ucred peer{};
  socklen_t size = sizeof peer;
  return ::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &size) == 0 && peer.uid == getuid();
}

bool sendAll(int fd, const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace ks::supervisor
