#pragma once
// How much memory a process holds: VmRSS from /proc/<pid>/status (resident set; on a CUDA runner this
// includes pinned host memory but not device memory).
#include <sys/types.h>

#include <cstdint>
#include <optional>

namespace ks::supervisor {

std::optional<std::uint64_t> residentBytes(pid_t pid);  // nullopt when /proc cannot tell (process gone)
std::optional<pid_t> parentOf(pid_t pid);               // its parent's pid (PPid of /proc/<pid>/status)

}  // namespace ks::supervisor
