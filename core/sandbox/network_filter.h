#pragma once
// No network: a seccomp BPF filter (no libseccomp) on this process and everything it starts. socket() and
// socketpair() of any family but AF_UNIX and AF_NETLINK fail with EPERM (AF_INET, AF_INET6, AF_PACKET,
// AF_VSOCK, Bluetooth, ...); io_uring_setup fails with EPERM (io_uring can open sockets without socket());
// ioctl TIOCSTI / TIOCLINUX fail with EPERM (pushing keystrokes into a terminal); a system call of another
// ABI than the runner's (32-bit int 0x80, x32) fails with EPERM. Everything else is allowed.
// The protocol to the client is an inherited socketpair and pipes, so the runner itself needs no socket.
#include <string>

namespace ks::sandbox {

// Sets PR_SET_NO_NEW_PRIVS and installs the filter on every thread of the process (TSYNC). Returns "" or
// why it could not.
std::string installNetworkFilter();

}  // namespace ks::sandbox
