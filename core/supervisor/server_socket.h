#pragma once
// Where a `kscope serve` process listens, and the Unix-domain socket calls both ends use. A server is found
// by what it would run: the same kscope-runner executable (path and modification time, so a rebuilt runner
// gets a server of its own), the same --device and the same memory limit map to the same socket, in a
// folder only this user can enter ($XDG_RUNTIME_DIR/kernelscope, else /tmp/kernelscope-<uid>).
#include <cstdint>
#include <filesystem>
#include <string>

namespace ks::supervisor {

// The socket a server for these settings listens on. Pure: creates nothing.
std::filesystem::path serverSocketPath(const std::filesystem::path& runner, const std::string& device,
                                       std::uint64_t memoryLimitBytes);

// A listening socket at `path` (its folder created with mode 0700 and checked to be ours, a socket left by a
// server that died removed); -1 and `error` when another server answers there or the socket cannot be made.
int listenAt(const std::filesystem::path& path, std::string& error);

// A connected socket, or -1 and `error` (no server listening: ENOENT or ECONNREFUSED).
int connectTo(const std::filesystem::path& path, std::string& error);

// True when the process at the other end of `fd` runs as this user (SO_PEERCRED).
bool peerIsThisUser(int fd);

// Writes all of `bytes` (MSG_NOSIGNAL: a closed peer is an error, not a SIGPIPE); false on failure.
bool sendAll(int fd, const std::string& bytes);

}  // namespace ks::supervisor
