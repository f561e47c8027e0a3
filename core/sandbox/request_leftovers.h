#pragma once
// What a request may leave outside its scratch folder, and its removal once the request is over
// (docs/security.md, "Files"). A program can write wherever the executor may: its scratch folder (the
// client removes it), /dev/shm, the build cache, and, through the descriptor the executor appends seals by,
// the seal log. The runner's judge, which runs no program, takes a snapshot when it sends a request and
// cleans up after the request's processes are gone:
//   - /dev/shm: what appeared during the request, is ours (our uid) and no live process has open or mapped;
//   - the build cache: what the request wrote outside the places the runner writes builds to (published
//     extension folders, native entries, the tools' caches: CUDA's, Triton's, Inductor's, torch's, CuPy's)
//     is removed; this runner's own staging folders are removed (a finished build was published from
//     them); what it wrote in those places is kept up to a quota, and all of it is removed past the quota
//     (the builds are done again when needed);
//   - the seal log: grown by more than a cap during the request, it is cut back to its size at the start
//     (the request's seals go too: its builds are rejected and done again next time).
// Several runners may share /dev/shm, a cache and its seal log (kscope batch, nodes of a cluster): their
// files that appear during this request are not told apart from this request's, except staging folders
// (named after their host and pid) and files another process holds open in /dev/shm.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ks::sandbox {

struct LeftoverPlaces {
  std::filesystem::path shm = "/dev/shm";
  std::filesystem::path cacheRoot;  // the request's build cache root
  std::filesystem::path sealLog;    // buildSealsPath(cacheRoot)
  pid_t executor = 0;               // staging folders named "…-<host>-<executor>-…" are this runner's
  std::uint64_t cacheQuotaBytes = std::uint64_t(256) << 20;  // what a request may add where builds go
  std::uint64_t sealLogCapBytes = std::uint64_t(1) << 20;    // what a request may append to the seal log
};

struct LeftoverReport {
  std::vector<std::string> removed;  // paths removed (files and folders), for stderr
  std::uint64_t bytes = 0;           // their size
  bool overQuota = false;            // the request wrote more than the quota where builds go
  bool sealLogCut = false;           // the seal log was cut back
};

class RequestLeftovers {
 public:
  // The snapshot at the start of a request.
  explicit RequestLeftovers(LeftoverPlaces places);

  // Removes what the request left (call once its processes are gone).
  LeftoverReport cleanUp() const;

 private:
  struct FileState {
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0;
    bool operator==(const FileState&) const = default;
  };
  LeftoverPlaces places_;
  std::set<std::string> shm_;                   // /dev/shm's names
  std::map<std::string, FileState> cache_;      // the cache's files, by path relative to its root
  std::set<std::string> dirs_;                  // the cache's folders, likewise
  std::uint64_t sealLogSize_ = 0;
  bool sealLogExisted_ = false;
};

}  // namespace ks::sandbox
