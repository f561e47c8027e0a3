#include "app/kscope-runner/executor_split.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

namespace ks::runner {
namespace {

using Identity = std::pair<dev_t, ino_t>;

std::vector<Identity> identities(std::initializer_list<int> fds) {
  std::vector<Identity> out;
  for (int fd : fds) {
    struct stat st{};
    if (fd >= 0 && fstat(fd, &st) == 0) out.emplace_back(st.st_dev, st.st_ino);
  }
  return out;
}

// Closes every descriptor of this process that is one of `client` (a pipe or socket is the same object
// whatever descriptor number refers to it); returns how many it still finds afterwards (0). Standard
// descriptors are pointed at /dev/null instead (stderr is one only when the caller sent stderr into the
// protocol pipe), except a terminal, which a person reads: there the person is the client.
int closeEveryDescriptorOf(const std::vector<Identity>& client) {
  int left = 0;
  for (int pass = 0; pass < 2; ++pass) {
    DIR* dir = opendir("/proc/self/fd");
    if (!dir) return -1;
    std::vector<int> found;
    for (dirent* e; (e = readdir(dir));) {
      char* end = nullptr;
      const long fd = std::strtol(e->d_name, &end, 10);
      if (end == e->d_name || *end || fd == dirfd(dir)) continue;
      struct stat st{};
      if (fstat(static_cast<int>(fd), &st) != 0) continue;
      for (const Identity& id : client)
        if (id == Identity(st.st_dev, st.st_ino) && !(fd <= STDERR_FILENO && isatty(static_cast<int>(fd))))
          found.push_back(static_cast<int>(fd));
    }
    closedir(dir);
    if (pass == 1) left = static_cast<int>(found.size());
    for (int fd : found) {
      if (fd > STDERR_FILENO) {
        ::close(fd);
      } else if (!isatty(fd)) {
        const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (null >= 0) dup2(null, fd);
        if (null >= 0) ::close(null);
      }
    }
  }
  return left;
}

}  // namespace

std::variant<Split, std::string> splitJudgeAndExecutor(ProtocolChannel& client) {
  int link[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, link) != 0)
    return std::string("cannot create the executor's socket: ") + std::strerror(errno);
  const std::vector<Identity> clientIds = identities({client.inFd(), client.outFd()});
  std::fflush(nullptr);
  const pid_t judge = getpid();
  const pid_t pid = fork();
  if (pid < 0) return std::string("cannot start the executor: fork: ") + std::strerror(errno);
  if (pid > 0) {
    ::close(link[1]);
    return Split{false, link[0], pid};
  }
  // The executor: die with the judge (and not run at all if it is already gone), then drop the client.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != judge) _exit(1);
  ::close(link[0]);
  client.close();
  if (const int left = closeEveryDescriptorOf(clientIds); left != 0)
    return std::string("the executor still reaches the client's protocol descriptors (") +
           (left < 0 ? "cannot read /proc/self/fd" : std::to_string(left) + " left") + ")";
  return Split{true, link[1], getpid()};
}

}  // namespace ks::runner
