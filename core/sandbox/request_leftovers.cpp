#include "core/sandbox/request_leftovers.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "core/sandbox/contain_candidate_process.h"

namespace ks::sandbox {
namespace {

namespace fs = std::filesystem;

std::string hostName() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return host;
}

// What the cache's top folders are for, by the runner's own rule (toolDirectories, the build folders).
enum class Place { Junk, Quota, OurStaging, OthersStaging };

// `rel`: a path relative to the cache root. Extension builds live in torch-extensions/<key>/ and are staged
// in torch-extensions/.staging/<key>-<host>-<pid>-<n>/; native builds in native/<key>/, staged in
// native/staging-<host>-<pid>-…/; the tools' caches each in a folder of their own (toolDirectories).
Place placeOf(const fs::path& rel, const std::set<std::string>& toolFolders, const std::string& ourTag) {
  std::vector<std::string> parts;
  for (const fs::path& p : rel) parts.push_back(p.string());
  const std::string& top = parts[0];
  if (parts.size() < 2) return Place::Junk;  // no file belongs at the cache root itself
  if (top == "torch-extensions") {
    if (parts[1] == ".staging") {
      if (parts.size() < 3) return Place::Junk;
      return parts[2].find(ourTag) != std::string::npos ? Place::OurStaging : Place::OthersStaging;
    }
    return parts.size() >= 3 ? Place::Quota : Place::Junk;  // torch-extensions/<key>/<file>
  }
  if (top == "native") {
    if (parts[1].rfind("staging-", 0) == 0)
      return parts[1].rfind("staging" + ourTag, 0) == 0 ? Place::OurStaging : Place::OthersStaging;
    return parts.size() >= 3 ? Place::Quota : Place::Junk;  // native/<key>/<file>
  }
  return toolFolders.count(top) ? Place::Quota : Place::Junk;
}

// The staging folder `rel` lies in: its first three parts (torch-extensions/.staging/<x>) or two (native/<x>).
fs::path stagingFolderOf(const fs::path& rel) {
  fs::path out;
  int n = 0;
  const int want = rel.begin()->string() == "native" ? 2 : 3;
  for (const fs::path& p : rel) {
    out /= p;
    if (++n == want) break;
  }
  return out;
}

// Every path some live process has open or mapped, among `candidates`.
std::set<std::string> inUse(const std::set<std::string>& candidates) {
  std::set<std::string> used;
  DIR* proc = opendir("/proc");
  if (!proc) return used;
  while (dirent* entry = readdir(proc)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (pid <= 0 || *end != '\0') continue;
    const std::string base = std::string("/proc/") + entry->d_name;
    if (DIR* fds = opendir((base + "/fd").c_str())) {
      while (dirent* fd = readdir(fds)) {
        char target[4096];
        const ssize_t n = readlink((base + "/fd/" + fd->d_name).c_str(), target, sizeof target - 1);
        if (n <= 0) continue;
        std::string path(target, static_cast<std::size_t>(n));
        if (const auto deleted = path.rfind(" (deleted)"); deleted != std::string::npos) path.resize(deleted);
        if (candidates.count(path)) used.insert(path);
      }
      closedir(fds);
    }
    std::ifstream maps(base + "/maps");
    for (std::string line; std::getline(maps, line);) {
      const auto slash = line.find('/');
      if (slash != std::string::npos && candidates.count(line.substr(slash))) used.insert(line.substr(slash));
    }
  }
  closedir(proc);
  return used;
}

std::uint64_t sizeOf(const fs::path& p) {
  struct stat st{};
  return lstat(p.c_str(), &st) == 0 && !S_ISDIR(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

std::uint64_t treeSize(const fs::path& p) {
  std::uint64_t total = sizeOf(p);
  std::error_code ec;
  if (fs::is_directory(fs::symlink_status(p, ec)))
    for (auto it = fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      total += sizeOf(it->path());
  return total;
}

}  // namespace

RequestLeftovers::RequestLeftovers(LeftoverPlaces places) : places_(std::move(places)) {
  std::error_code ec;
  for (auto it = fs::directory_iterator(places_.shm, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
    shm_.insert(it->path().filename().string());
  if (!places_.cacheRoot.empty() && fs::is_directory(places_.cacheRoot, ec)) {
    for (auto it = fs::recursive_directory_iterator(places_.cacheRoot, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      struct stat st{};
      if (lstat(it->path().c_str(), &st) != 0) continue;
      const std::string rel = it->path().lexically_relative(places_.cacheRoot).string();
      if (S_ISDIR(st.st_mode)) {
        dirs_.insert(rel);
        continue;
      }
      cache_[rel] = FileState{static_cast<std::uint64_t>(st.st_size),
                              static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
    }
  }
  struct stat st{};
  sealLogExisted_ = !places_.sealLog.empty() && stat(places_.sealLog.c_str(), &st) == 0;
  sealLogSize_ = sealLogExisted_ ? static_cast<std::uint64_t>(st.st_size) : 0;
}

LeftoverReport RequestLeftovers::cleanUp() const {
  LeftoverReport report;
  std::error_code ec;
  auto remove = [&](const fs::path& p) {
    const std::uint64_t bytes = treeSize(p);
    if (fs::remove_all(p, ec) > 0) {
      report.removed.push_back(p.string());
      report.bytes += bytes;
    }
  };

  // /dev/shm: what is new, ours, and held by no live process.
  std::set<std::string> fresh;
  for (auto it = fs::directory_iterator(places_.shm, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    if (shm_.count(it->path().filename().string())) continue;
    struct stat st{};
    if (lstat(it->path().c_str(), &st) == 0 && st.st_uid == geteuid()) fresh.insert(it->path().string());
  }
  if (!fresh.empty()) {
    const std::set<std::string> used = inUse(fresh);
    for (const std::string& p : fresh)
      if (!used.count(p)) remove(p);
  }

  // The build cache.
  if (!places_.cacheRoot.empty() && fs::is_directory(places_.cacheRoot, ec)) {
    std::set<std::string> toolFolders;
    for (const auto& [name, value] : toolDirectories("/", places_.cacheRoot)) {
      const fs::path rel = fs::path(value).lexically_relative(places_.cacheRoot);
      if (!rel.empty() && rel.begin()->string() != ".." && fs::path(value).is_absolute())
        toolFolders.insert(rel.begin()->string());
    }
    const std::string ourTag = "-" + hostName() + "-" + std::to_string(places_.executor) + "-";
    std::vector<fs::path> junk, quota, newDirs;
    std::set<fs::path> ourStaging;
    std::uint64_t added = 0;
    for (auto it = fs::recursive_directory_iterator(places_.cacheRoot, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      const fs::path rel = it->path().lexically_relative(places_.cacheRoot);
      const Place place = placeOf(rel, toolFolders, ourTag);
      if (place == Place::OurStaging) {
        ourStaging.insert(stagingFolderOf(rel));
        it.disable_recursion_pending();
        continue;
      }
      struct stat st{};
      if (lstat(it->path().c_str(), &st) != 0) continue;
      if (S_ISDIR(st.st_mode)) {
        if (dirs_.count(rel.string())) continue;
        const std::string top = rel.begin()->string();
        if (top != "torch-extensions" && top != "native" && !toolFolders.count(top)) {
          junk.push_back(rel);  // a new folder where no build goes: whole
          it.disable_recursion_pending();
        } else {
          newDirs.push_back(rel);  // removed below if the removals leave it empty
        }
        continue;
      }
      const FileState now{static_cast<std::uint64_t>(st.st_size),
                          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
      const auto before = cache_.find(rel.string());
      if (before != cache_.end() && before->second == now) continue;  // not this request's
      if (place == Place::Junk) {
        junk.push_back(rel);
      } else if (place == Place::Quota) {
        quota.push_back(rel);
        const std::uint64_t was = before == cache_.end() ? 0 : before->second.size;
        added += now.size > was ? now.size - was : 0;
      }
    }
    for (const fs::path& rel : junk) remove(places_.cacheRoot / rel);
    for (const fs::path& rel : ourStaging) remove(places_.cacheRoot / rel);
    if (added > places_.cacheQuotaBytes) {
      report.overQuota = true;
      for (const fs::path& rel : quota) remove(places_.cacheRoot / rel);
    }
    // Folders the request made that the removals left empty, deepest first.
    std::sort(newDirs.begin(), newDirs.end(), [](const fs::path& a, const fs::path& b) {
      return std::distance(a.begin(), a.end()) > std::distance(b.begin(), b.end());
    });
    for (const fs::path& rel : newDirs)
      if (fs::is_empty(places_.cacheRoot / rel, ec) && !ec) fs::remove(places_.cacheRoot / rel, ec);
  }

  // The seal log: a request appends a line per build it publishes; more than the cap is not a build's.
  if (!places_.sealLog.empty()) {
    struct stat st{};
    if (stat(places_.sealLog.c_str(), &st) == 0 &&
        static_cast<std::uint64_t>(st.st_size) > sealLogSize_ + places_.sealLogCapBytes) {
      if (::truncate(places_.sealLog.c_str(), static_cast<off_t>(sealLogSize_)) == 0) {
        report.sealLogCut = true;
        report.bytes += static_cast<std::uint64_t>(st.st_size) - sealLogSize_;
        report.removed.push_back(places_.sealLog.string() + " (cut back to " + std::to_string(sealLogSize_) +
                                 " bytes)");
      }
    }
  }
  return report;
}

}  // namespace ks::sandbox
