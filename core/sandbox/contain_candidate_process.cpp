#include "core/sandbox/contain_candidate_process.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include "core/sandbox/build_seals.h"
#include "core/sandbox/descendants.h"
#include "core/sandbox/landlock_rules.h"
#include "core/sandbox/network_filter.h"
#include "core/sandbox/resource_limits.h"

namespace ks::sandbox {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> splitPaths(const char* list) {
  std::vector<fs::path> out;
  if (!list) return out;
  std::string rest = list;
  for (std::size_t at; !rest.empty();) {
    at = rest.find(':');
    const std::string item = rest.substr(0, at);
    if (!item.empty() && fs::path(item).is_absolute()) out.emplace_back(item);
    rest = at == std::string::npos ? "" : rest.substr(at + 1);
  }
  return out;
}

bool under(const fs::path& path, const fs::path& folder) {
  const fs::path p = fs::weakly_canonical(path), f = fs::weakly_canonical(folder);
  auto [a, b] = std::mismatch(f.begin(), f.end(), p.begin(), p.end());
  return a == f.end();
}

// A positive whole number from the environment variable `name`, else `fallback`.
std::uint64_t positiveSetting(const char* name, std::uint64_t fallback) {
  const char* value = std::getenv(name);
  if (!value || !*value) return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(value, &end, 10);
  return end && *end == '\0' && n > 0 ? n : fallback;
}

int threadCount() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Threads:", 0) == 0) return std::atoi(line.c_str() + 8);
  return 0;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> toolDirectories(const fs::path& scratchRoot,
                                                                 const fs::path& cacheRoot) {
  return {{"TMPDIR", (scratchRoot / "tmp").string()},
          {"TORCH_EXTENSIONS_DIR", (cacheRoot / "torch-extensions").string()},
          {"CUDA_CACHE_PATH", (cacheRoot / "cuda").string()},
          {"TRITON_CACHE_DIR", (cacheRoot / "triton").string()},
          {"TORCHINDUCTOR_CACHE_DIR", (cacheRoot / "inductor").string()},
          {"PYTORCH_KERNEL_CACHE_PATH", (cacheRoot / "torch-kernels").string()},
          // CuPy compiles into ~/.cupy by default, which Landlock refuses: L2/37 and L2/87 of the CUDA-L1
          // release fail to load in a contained runner without it, and time correctly with it
          {"CUPY_CACHE_DIR", (cacheRoot / "cupy").string()},
          // Inductor compiles Triton kernels in worker processes by default. A process the program starts
          // cannot write its own /proc entry (only the runner's is writable), so CUDA does not start there
          // and the worker fails ("Could not find an active GPU backend": L2/49 on a cold inductor cache,
          // same run). One thread compiles in the runner instead; only compile time changes, nothing timed.
          {"TORCHINDUCTOR_COMPILE_THREADS", "1"},
          {"PYTHONDONTWRITEBYTECODE", "1"}};
}

protocol::Containment containCandidateProcess(const ContainmentPaths& paths) {
  protocol::Containment c;
  std::error_code ec;
  const fs::path scratch = fs::absolute(paths.scratchRoot, ec);
  const fs::path cache = fs::absolute(paths.cacheRoot, ec);
  for (const auto& [name, value] : toolDirectories(scratch, cache)) {
    setenv(name.c_str(), value.c_str(), 1);
    if (fs::path(value).is_absolute()) fs::create_directories(value, ec);  // the folders, not the settings
  }

  const fs::path seals = buildSealsPath(cache);
  if (std::string why = openBuildSeals(seals); why.empty())
    c.buildCache = "sealed";
  else
    c.notes.push_back("build cache not sealed: " + why);

  const char* mode = std::getenv("KSCOPE_CONTAINMENT");
  if (mode && std::string(mode) == "off") {
    c.notes.push_back("KSCOPE_CONTAINMENT=off: no Landlock, no network filter, no subreaper");
    return c;
  }

  if (becomeChildSubreaper())
    c.processes = "subreaper";
  else
    c.notes.push_back(
        "PR_SET_CHILD_SUBREAPER refused: daemons a program starts can escape the end-of-request kill");
  // How many more tasks (processes and threads) this process and its descendants may add to the user's
  // (KSCOPE_PROCESSES; the executor itself has dozens of threads, a build a few compilers at once).
  const ProcessCap cap = capProcesses(positiveSetting("KSCOPE_PROCESSES", kProcessAllowance));
  c.processLimit = static_cast<std::int64_t>(cap.limit);
  if (!cap.note.empty()) c.notes.push_back(cap.note);
  // No file larger than this (KSCOPE_FILE_SIZE_MIB): a write past it fails with EFBIG, in /dev/shm, the cache
  // and the seal log too.
  const std::uint64_t fileSize = positiveSetting("KSCOPE_FILE_SIZE_MIB", kFileSizeLimitMiB) << 20;
  if (std::string why = limitFileSize(fileSize); why.empty())
    c.fileSizeLimit = static_cast<std::int64_t>(fileSize);
  else
    c.notes.push_back(why);

  WriteRules rules;
  // The process's own /proc entry: the CUDA driver writes its threads' names there
  // (/proc/self/task/<tid>/comm) and cuInit fails with 304 "OS call failed" when it cannot (found on the H100,
  // bench/gpu/containment-probe.sh). Only this process's entry: others' (the judge's /proc/<pid>/mem) stay
  // closed. A process the program starts gets its own pid and not this right.
  rules.folders = {scratch, cache, fs::path("/proc") / std::to_string(getpid())};
  for (const fs::path& extra : splitPaths(std::getenv("KSCOPE_WRITABLE"))) {
    fs::create_directories(extra, ec);
    rules.folders.push_back(extra);
  }
  rules.devices = deviceWriteTargets();
  for (const fs::path& folder : rules.folders)
    if (under(seals, folder))
      c.notes.push_back("the seal log " + seals.string() + " lies in the writable folder " + folder.string() +
                        ": a candidate can forge seals");
  const int threads = threadCount();
  const LandlockOutcome landlock = restrictWrites(rules);
  if (landlock.abi > 0) {
    c.filesystem = "landlock";
    c.landlockAbi = landlock.abi;
    for (const fs::path& f : rules.folders) c.writable.push_back(f.string());
    if (threads > 1)
      c.notes.push_back(std::to_string(threads - 1) +
                        " thread(s) started before Landlock applied are not bound by it");
    if (landlock.abi < 6)
      c.notes.push_back("Landlock ABI " + std::to_string(landlock.abi) +
                        " < 6: signals and abstract Unix sockets to processes outside are not scoped");
  } else {
    c.notes.push_back("filesystem writes not limited: " + landlock.error);
  }

  if (std::string why = installNetworkFilter(); why.empty())
    c.network = "seccomp";
  else
    c.notes.push_back("network not filtered: " + why);
  return c;
}

}  // namespace ks::sandbox
