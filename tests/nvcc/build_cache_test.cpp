// The build cache filled by several processes at once (a Slurm array's tasks on several nodes share one
// cache folder): each builder stages its entry in a folder of its own and publishes it with one rename, so
// exactly one complete entry is published, a reader never sees a record of one builder beside another's
// library, and no staging folder is left behind.
#include "core/nvcc/build_cache.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ks::nvcc {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(BuildCacheConcurrency, ConcurrentFillersPublishOneWholeEntry) {
  const fs::path root = fs::temp_directory_path() / ("kscope-cache-race-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root);
  const std::string key = buildCacheKey({.kind = "native-library", .nvccVersion = "test", .arch = "sm_90a"});
  constexpr int kFillers = 8;
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  std::vector<pid_t> children;
  for (int w = 0; w < kFillers; ++w) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      ::close(go[1]);
      // Each filler's library: 2 MiB naming it, so that copying it takes long enough to overlap.
      const fs::path artifact = root / ("built-" + std::to_string(w)) / "libkernel.so";
      fs::create_directories(artifact.parent_path());
      {
        std::ofstream out(artifact, std::ios::binary);
        const std::string mark = "writer " + std::to_string(w) + "\n";
        for (std::size_t n = 0; n < (2u << 20) / mark.size(); ++n) out << mark;
      }
      BuildResult r;
      r.ok = true;
      r.log = "writer " + std::to_string(w);
      r.library = artifact;
      char c;
      if (::read(go[0], &c, 1) != 0) ::_exit(3);  // waits until the parent closes the pipe: all start at once
      const std::string why = BuildCache(root).store(key, r, {artifact});
      ::_exit(why.empty() ? 0 : 1);
    }
    children.push_back(pid);
  }
  ::close(go[0]);
  ::close(go[1]);  // go
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a filler's store reported a failure: " << status;
  }

  const std::optional<BuildResult> found = BuildCache(root).find(key);
  ASSERT_TRUE(found) << "no entry published";
  EXPECT_TRUE(found->cacheHit);
  ASSERT_EQ(found->log.rfind("writer ", 0), 0u) << found->log;
  // The record and the library are the same filler's, and the library is whole.
  const std::string library = slurp(found->library);
  const std::string mark = found->log + "\n";
  EXPECT_EQ(library.size(), ((2u << 20) / mark.size()) * mark.size());
  EXPECT_EQ(library.substr(0, mark.size()), mark);
  EXPECT_EQ(library.substr(library.size() - mark.size()), mark);
  for (const auto& e : fs::directory_iterator(root))
    EXPECT_EQ(e.path().filename().string().rfind("staging-", 0), std::string::npos)
        << "left behind: " << e.path();
  fs::remove_all(root);
}

}  // namespace
}  // namespace ks::nvcc
