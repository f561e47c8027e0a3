#include "core/sandbox/network_filter.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <vector>

namespace ks::sandbox {
namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#endif

constexpr unsigned kDeny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);

sock_filter stmt(unsigned short code, unsigned k) { return BPF_STMT(code, k); }
sock_filter jumpIfEqual(unsigned k, unsigned char ifTrue, unsigned char ifFalse) {
  return BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, k, ifTrue, ifFalse);
}
// The low 32 bits of system call argument `n` (little-endian: the int the kernel reads).
constexpr unsigned argLow(int n) { return offsetof(seccomp_data, args) + 8 * static_cast<unsigned>(n); }

}  // namespace

std::string installNetworkFilter() {
#if !defined(__x86_64__) && !defined(__aarch64__)
  return "the network filter is written for x86-64 and aarch64 only";
#else
  std::vector<sock_filter> f;
  // [0..2] another ABI than ours: deny.
  f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
  f.push_back(jumpIfEqual(kArch, 1, 0));
  f.push_back(stmt(BPF_RET | BPF_K, kDeny));
  f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
#if defined(__x86_64__)
  // x32 system calls (nr with bit 30 set) are another ABI on the same arch value: deny.
  f.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));
  f.push_back(stmt(BPF_RET | BPF_K, kDeny));
#endif
  // Dispatch on the number. The blocks below: [socket domain check], [ioctl request check].
  //   jeq socket     -> domain
  //   jeq socketpair -> domain
  //   jeq io_uring_setup -> deny
  //   jeq ioctl      -> ioctl
  //   allow
  // domain: ld args[0]; jeq AF_UNIX -> allow; jeq AF_NETLINK -> allow; deny
  // ioctl:  ld args[1]; jeq TIOCSTI -> deny; jeq TIOCLINUX -> deny; allow
  f.push_back(jumpIfEqual(SYS_socket, 4, 0));          // -> domain
  f.push_back(jumpIfEqual(SYS_socketpair, 3, 0));      // -> domain
  f.push_back(jumpIfEqual(SYS_io_uring_setup, 7, 0));  // -> the deny after domain
  f.push_back(jumpIfEqual(SYS_ioctl, 7, 0));           // -> ioctl
  f.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  // domain:
  f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, argLow(0)));
  f.push_back(jumpIfEqual(AF_UNIX, 2, 0));
  f.push_back(jumpIfEqual(AF_NETLINK, 1, 0));
  f.push_back(stmt(BPF_RET | BPF_K, kDeny));
  f.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
  f.push_back(stmt(BPF_RET | BPF_K, kDeny));  // io_uring_setup
  // ioctl:
  f.push_back(stmt(BPF_LD | BPF_W | BPF_ABS, argLow(1)));
  f.push_back(jumpIfEqual(TIOCSTI, 1, 0));
  f.push_back(jumpIfEqual(TIOCLINUX, 0, 1));
  f.push_back(stmt(BPF_RET | BPF_K, kDeny));
  f.push_back(stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));

  sock_fprog program{static_cast<unsigned short>(f.size()), f.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return std::string("PR_SET_NO_NEW_PRIVS: ") + std::strerror(errno);
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &program) != 0)
    return std::string("seccomp(SECCOMP_SET_MODE_FILTER): ") + std::strerror(errno);
  return "";
#endif
}

}  // namespace ks::sandbox
