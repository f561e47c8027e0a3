#include "core/nvcc/build_cache.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "core/hash/sha256.h"
#include "core/json/nesting.h"
#include "core/sandbox/build_seals.h"

namespace ks::nvcc {
namespace {

void field(hash::Sha256& h, const std::string& name, const std::string& value) {
  h.update(name + ":" + std::to_string(value.size()) + ":");
  h.update(value);
  h.update("\n");
}

// True when the entry's record and library are the ones a runner published (core/sandbox/build_seals.h).
// An entry that is not is removed, so that the build that follows publishes a fresh one in its place.
bool sealedOrRemoved(const std::filesystem::path& entry) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string why;
  bool sealed = sandbox::isSealed(entry / "build.json", &why);
  for (const auto& file : fs::directory_iterator(entry, ec))
    if (sealed && file.path().extension() == ".so") sealed = sandbox::isSealed(file.path(), &why);
  if (sealed) return true;
  std::fprintf(stderr, "kscope: build cache entry %s rejected, building again: %s\n", entry.c_str(),
               why.c_str());
  fs::remove_all(entry, ec);
  return false;
}

}  // namespace

std::filesystem::path defaultBuildCacheDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME");
      xdg && *xdg && std::filesystem::path(xdg).is_absolute())
    return std::filesystem::path(xdg) / "kernelscope" / "build";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : "/tmp") / ".cache" / "kernelscope" / "build";
}

std::string buildCacheKey(const CacheKeyInput& input) {
  hash::Sha256 h;
  field(h, "kscope-build-cache", "1");
  field(h, "kind", input.kind);
  field(h, "nvcc", input.nvccVersion);
  field(h, "arch", input.arch);
  field(h, "salt", input.salt);
  for (const auto& f : input.flags) field(h, "flag", f);
  for (const auto& [name, text] : input.sources) {
    field(h, "source-name", name);
    field(h, "source-text", text);
  }
  return h.hexDigest();
}

std::filesystem::path BuildCache::entryDir(const std::string& key) const {
  return root_ / key.substr(0, 2) / key;
}

std::optional<BuildResult> BuildCache::find(const std::string& key) const {
  std::error_code exists;
  if (!std::filesystem::exists(entryDir(key) / "build.json", exists) || !sealedOrRemoved(entryDir(key)))
    return std::nullopt;
  std::ifstream in(entryDir(key) / "build.json");
  if (!in) return std::nullopt;
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (json::tooDeepAt(text)) return std::nullopt;  // not a record this cache wrote
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  BuildResult r;
  r.ok = j.value("ok", false);
  r.message = j.value("message", "");
  r.compileSeconds = j.value("compile_seconds", 0.0);
  r.log = j.value("log", "");
  if (j.contains("flags") && j["flags"].is_array())
    for (const auto& f : j["flags"])
      if (f.is_string()) r.flags.push_back(f.get<std::string>());
  if (j.contains("kernels") && j["kernels"].is_array())
    for (const auto& k : j["kernels"]) r.kernels.push_back(kernelResourcesFromJson(k));
  if (j.contains("diagnostics") && j["diagnostics"].is_array())
    for (const auto& d : j["diagnostics"]) r.diagnostics.push_back(diagnosticFromJson(d));
  if (j.contains("library") && j["library"].is_string()) {
    r.library = entryDir(key) / std::filesystem::path(j["library"].get<std::string>()).filename();
    std::error_code ec;
    if (!std::filesystem::exists(r.library, ec)) return std::nullopt;
  }
  r.cacheHit = true;
  r.cacheKey = key;
  return r;
}

std::string BuildCache::store(const std::string& key, const BuildResult& result,
                              const std::vector<std::filesystem::path>& artifacts) const {
  namespace fs = std::filesystem;
  static std::atomic<unsigned> counter{0};
  std::error_code ec;
  const fs::path final = entryDir(key);
  if (fs::exists(final / "build.json", ec) && sealedOrRemoved(final)) return "";
  // The host is in the name: nodes of a cluster share the cache folder, and their process ids repeat.
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const fs::path staging =
      root_ / ("staging-" + std::string(host) + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++) +
               "-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(staging, ec);
  if (ec) return "cannot create " + staging.string() + ": " + ec.message();
  auto fail = [&](const std::string& why) {
    std::error_code ignored;
    fs::remove_all(staging, ignored);
    return why;
  };
  for (const auto& a : artifacts) {
    fs::copy_file(a, staging / a.filename(), fs::copy_options::overwrite_existing, ec);
    if (ec) return fail("cannot copy " + a.string() + " into the build cache: " + ec.message());
  }
  nlohmann::json meta = toJson(result);
  meta["log"] = result.log;
  if (!result.library.empty()) meta["library"] = result.library.filename().string();
  {
    std::ofstream out(staging / "build.json");
    out << meta.dump(1);
    if (!out) return fail("cannot write " + (staging / "build.json").string());
  }
  fs::create_directories(final.parent_path(), ec);
  if (ec) return fail("cannot create " + final.parent_path().string() + ": " + ec.message());
  fs::rename(staging, final, ec);
  if (ec) {
    bool otherWriterWon = fs::exists(final / "build.json");
    std::string why = fail("cannot publish build cache entry " + final.string() + ": " + ec.message());
    return otherWriterWon ? "" : why;
  }
  std::string sealed = sandbox::sealFile(final / "build.json");
  for (const auto& a : artifacts)
    if (sealed.empty()) sealed = sandbox::sealFile(final / a.filename());
  return sealed;
}

}  // namespace ks::nvcc
