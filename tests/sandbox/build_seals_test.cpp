// The build cache accepts only what a runner published: a library planted at a cache key, or a published
// one overwritten afterwards, is rejected (and its entry removed, so the next build publishes afresh).
#include "core/sandbox/build_seals.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/nvcc/build_cache.h"

namespace fs = std::filesystem;
using namespace ks;

namespace {

class BuildSealsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kscope-seals-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "work");
    cacheRoot_ = dir_ / "cache" / "build";
    ASSERT_EQ(sandbox::openBuildSeals(sandbox::buildSealsPath(cacheRoot_)), "");
  }
  void TearDown() override {
    sandbox::closeBuildSeals();
    fs::remove_all(dir_);
  }
  fs::path library(const std::string& content) {
    const fs::path p = dir_ / "work" / "libkernel.so";
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
  nvcc::BuildResult built(const fs::path& lib) {
    nvcc::BuildResult r;
    r.ok = true;
    r.message = "built kernel.cu";
    r.library = lib;
    return r;
  }
  fs::path dir_, cacheRoot_;
};

}  // namespace

TEST_F(BuildSealsTest, TheSealLogLiesBesideTheCacheNotInIt) {
  EXPECT_EQ(sandbox::buildSealsPath("/home/me/.cache/kernelscope/build"),
            fs::path("/home/me/.cache/kernelscope/build-seals.log"));
  EXPECT_EQ(sandbox::buildSealsPath("/home/me/.cache/kernelscope/build/"),
            fs::path("/home/me/.cache/kernelscope/build-seals.log"));
}

TEST_F(BuildSealsTest, APublishedEntryIsFoundAndAnOverwrittenLibraryIsRejected) {
  nvcc::BuildCache cache(cacheRoot_);
  const std::string key = std::string(64, 'a');
  ASSERT_EQ(cache.store(key, built(library("honest library")), {library("honest library")}), "");
  auto hit = cache.find(key);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->library, cache.entryDir(key) / "libkernel.so");

  // A candidate overwrites the published library (the cache folder is writable to it).
  std::ofstream(cache.entryDir(key) / "libkernel.so", std::ios::binary | std::ios::trunc) << "planted code";
  EXPECT_FALSE(cache.find(key));
  EXPECT_FALSE(fs::exists(cache.entryDir(key))) << "the rejected entry is removed";
  // The next build publishes afresh, and that is found.
  ASSERT_EQ(cache.store(key, built(library("honest library")), {library("honest library")}), "");
  auto again = cache.find(key);
  ASSERT_TRUE(again);
  std::ifstream in(again->library);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "honest library");
}

TEST_F(BuildSealsTest, AnEntryPlantedAtAKeyIsRejectedAndReplacedByTheRealBuild) {
  nvcc::BuildCache cache(cacheRoot_);
  const std::string key = std::string(64, 'b');
  // Planted as the cache writes its entries: a record saying "ok" and a library beside it.
  fs::create_directories(cache.entryDir(key));
  std::ofstream(cache.entryDir(key) / "build.json")
      << R"({"ok": true, "library": "libkernel.so", "log": ""})";
  std::ofstream(cache.entryDir(key) / "libkernel.so") << "planted code";
  EXPECT_FALSE(cache.find(key));
  // A planted record of a failed build (to fake a compile error) is rejected the same way.
  fs::create_directories(cache.entryDir(key));
  std::ofstream(cache.entryDir(key) / "build.json")
      << R"({"ok": false, "message": "error: fake", "log": ""})";
  EXPECT_FALSE(cache.find(key));
  // store() does not keep a planted entry that appeared after find(): the real build replaces it.
  fs::create_directories(cache.entryDir(key));
  std::ofstream(cache.entryDir(key) / "build.json")
      << R"({"ok": true, "library": "libkernel.so", "log": ""})";
  std::ofstream(cache.entryDir(key) / "libkernel.so") << "planted code";
  ASSERT_EQ(cache.store(key, built(library("honest library")), {library("honest library")}), "");
  auto hit = cache.find(key);
  ASSERT_TRUE(hit);
  std::ifstream in(hit->library);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "honest library");
}

TEST_F(BuildSealsTest, ForgedSealLinesInAnotherFileDoNotCount) {
  // A seal is only what the log beside the cache says; a candidate can write seal-like files in the cache.
  const fs::path lib = library("x");
  std::string why;
  EXPECT_FALSE(sandbox::isSealed(lib, &why));
  EXPECT_NE(why.find("no seal"), std::string::npos) << why;
  ASSERT_EQ(sandbox::sealFile(lib), "");
  EXPECT_TRUE(sandbox::isSealed(lib));
  std::ofstream(lib, std::ios::trunc) << "y";
  EXPECT_FALSE(sandbox::isSealed(lib, &why));
  EXPECT_NE(why.find("changed after it was published"), std::string::npos) << why;
}

TEST(BuildSealsClosed, WithoutASealLogNothingIsEnforced) {
  sandbox::closeBuildSeals();
  EXPECT_TRUE(sandbox::isSealed("/nonexistent/lib.so"));
  EXPECT_EQ(sandbox::sealFile("/nonexistent/lib.so"), "");
}
