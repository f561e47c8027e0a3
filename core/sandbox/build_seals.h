#pragma once
// Seals of the build cache: the runner records the sha256 of every library (and replayed compiler failure)
// it publishes in an append-only log beside the cache, and loads a cached file only when its content matches
// the last seal recorded for its path. The log lies outside the folders the candidate may write
// (<cache root>-seals.log, next to the cache root, not in it; Landlock keeps it read-only to the candidate),
// so a library planted in the cache, or a published one overwritten, is rejected and rebuilt.
// What it does not stop: the runner appends through a descriptor opened before Landlock applied, and
// candidate code in the same process can write to that descriptor too (docs/security.md, "Build cache").
#include <filesystem>
#include <string>

namespace ks::sandbox {

// <cacheRoot>-seals.log: beside the cache root, outside it.
std::filesystem::path buildSealsPath(const std::filesystem::path& cacheRoot);

// Opens (creating it) the process's seal log for appending. Until it is called, sealFile does nothing and
// isSealed accepts every file: only the runner, which loads cached libraries, enforces seals. "" or why not.
std::string openBuildSeals(const std::filesystem::path& log);
bool buildSealsOpen();
void closeBuildSeals();  // tests

// Records the sha256 of `file` (an absolute path) as its seal. "" or why not.
std::string sealFile(const std::filesystem::path& file);

// True when `file`'s content matches its last seal (or no seal log is open); otherwise false and `why`.
bool isSealed(const std::filesystem::path& file, std::string* why = nullptr);

}  // namespace ks::sandbox
