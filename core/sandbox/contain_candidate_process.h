#pragma once
// The runner's containment, set up by one call before any program runs (docs/security.md): a fresh scratch
// tree and the tools pointed into it, filesystem writes limited with Landlock, no network (seccomp), a child
// subreaper so that no descendant escapes killDescendants, and the build cache's seal log. What is active
// comes back as the `containment` of the runner's environment; what is not is said there, never silently.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/protocol/evaluate_result.h"

namespace ks::sandbox {

struct ContainmentPaths {
  std::filesystem::path scratchRoot;  // the runner's own scratch root (created)
  std::filesystem::path cacheRoot;    // the build cache root (created)
};

// Tasks (processes and threads) the executor and what it starts may add to its user's (RLIMIT_NPROC), unless
// KSCOPE_PROCESSES says otherwise.
inline constexpr std::uint64_t kProcessAllowance = 4096;
// The largest file the executor and what it starts may write (RLIMIT_FSIZE), unless KSCOPE_FILE_SIZE_MIB says
// otherwise: far above a library or a trace a build or profile writes.
inline constexpr std::uint64_t kFileSizeLimitMiB = 1024;

// Reads KSCOPE_WRITABLE (more folders, ':'-separated: the supervisor passes its scratch root) and
// KSCOPE_CONTAINMENT ("off": no Landlock, seccomp, subreaper or limits, reported as such), KSCOPE_PROCESSES and
// KSCOPE_FILE_SIZE_MIB, caps the user's processes and the size of a file (resource_limits.h), sets TMPDIR,
// TORCH_EXTENSIONS_DIR, CUDA_CACHE_PATH, TRITON_CACHE_DIR, TORCHINDUCTOR_CACHE_DIR, PYTORCH_KERNEL_CACHE_PATH,
// CUPY_CACHE_DIR into scratch and cache, TORCHINDUCTOR_COMPILE_THREADS=1 (no compile workers: a process the
// program starts cannot start CUDA under these rules) and PYTHONDONTWRITEBYTECODE, then contains this process.
// Call it while the process has one thread: Landlock binds the calling thread and its later threads.
protocol::Containment containCandidateProcess(const ContainmentPaths& paths);

// The variables pointing tools into `scratchRoot` and `cacheRoot`, and the settings that keep them in this
// process (name, value).
std::vector<std::pair<std::string, std::string>> toolDirectories(const std::filesystem::path& scratchRoot,
                                                                 const std::filesystem::path& cacheRoot);

}  // namespace ks::sandbox
