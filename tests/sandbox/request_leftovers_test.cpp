// What a request left outside its scratch folder, removed once it is over (core/sandbox/request_leftovers.h),
// on folders of the test's own standing for /dev/shm and a build cache.
#include "core/sandbox/request_leftovers.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;
using namespace ks::sandbox;

namespace {

std::string host() {
  char h[256] = {};
  gethostname(h, sizeof h - 1);
  return h;
}

void write(const fs::path& p, std::size_t bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << std::string(bytes, 'x');
}

class RequestLeftoversTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("kscope-leftovers-test-" + std::to_string(getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    places_.shm = dir_ / "shm";
    places_.cacheRoot = dir_ / "cache" / "build";
    places_.sealLog = dir_ / "cache" / "build-seals.log";
    places_.executor = 4242;
    fs::create_directories(places_.shm);
    fs::create_directories(places_.cacheRoot);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  LeftoverPlaces places_;
};

}  // namespace

TEST_F(RequestLeftoversTest, JunkAndOurStagingGoBuildsOthersStagingAndOlderFilesStay) {
  const fs::path c = places_.cacheRoot;
  const std::string ours = "-" + host() + "-4242-", others = "-" + host() + "-4343-";
  write(c / "older.bin", 10);                  // there before the request: not its doing
  write(places_.shm / "older", 10);
  write(places_.sealLog, 100);
  const RequestLeftovers before(places_);

  write(c / "junk.bin", 1000);                                        // nothing belongs at the root
  write(c / "junk" / "deep" / "inside.bin", 1000);                    // nor in a folder of its own
  write(c / "torch-extensions" / "junk.bin", 10);                     // nor beside the key folders
  write(c / "torch-extensions" / "ext-1" / "ext.so", 1000);           // a published build
  write(c / "torch-extensions" / ".staging" / ("ext" + ours + "0") / "ext.o", 1000);
  write(c / "torch-extensions" / ".staging" / ("ext" + others + "0") / "ext.o", 1000);
  write(c / "native" / "key" / "build.json", 10);
  write(c / "native" / ("staging" + ours + "1-2") / "kernel.so", 1000);
  write(c / "triton" / "kernel.cubin", 1000);                         // a tool's cache
  write(places_.shm / "junk", 1000);
  write(places_.shm / "held", 1000);
  const int held = ::open((places_.shm / "held").c_str(), O_RDONLY | O_CLOEXEC);  // another process's, say
  std::ofstream(places_.sealLog, std::ios::app) << "a seal line\n";

  const LeftoverReport r = before.cleanUp();
  EXPECT_FALSE(fs::exists(c / "junk.bin"));
  EXPECT_FALSE(fs::exists(c / "junk"));
  EXPECT_FALSE(fs::exists(c / "torch-extensions" / "junk.bin"));
  EXPECT_FALSE(fs::exists(c / "torch-extensions" / ".staging" / ("ext" + ours + "0")));
  EXPECT_FALSE(fs::exists(c / "native" / ("staging" + ours + "1-2")));
  EXPECT_FALSE(fs::exists(places_.shm / "junk"));
  EXPECT_TRUE(fs::exists(c / "older.bin"));
  EXPECT_TRUE(fs::exists(c / "torch-extensions" / "ext-1" / "ext.so"));
  EXPECT_TRUE(fs::exists(c / "torch-extensions" / ".staging" / ("ext" + others + "0") / "ext.o"));
  EXPECT_TRUE(fs::exists(c / "native" / "key" / "build.json"));
  EXPECT_TRUE(fs::exists(c / "triton" / "kernel.cubin"));
  EXPECT_TRUE(fs::exists(places_.shm / "older"));
  EXPECT_TRUE(fs::exists(places_.shm / "held")) << "a file a live process holds open";
  EXPECT_EQ(fs::file_size(places_.sealLog), 112u) << "a seal line is within the cap";
  EXPECT_FALSE(r.overQuota);
  EXPECT_FALSE(r.sealLogCut);
  EXPECT_GE(r.bytes, 5000u);
  ::close(held);
}

TEST_F(RequestLeftoversTest, PastTheQuotaWhatTheRequestWroteWhereBuildsGoIsRemovedAndTheSealLogCutBack) {
  places_.cacheQuotaBytes = 1500;
  places_.sealLogCapBytes = 100;
  const fs::path c = places_.cacheRoot;
  write(c / "torch-extensions" / "old-1" / "old.so", 10);
  write(c / "torch-extensions" / "kept-1" / "kept.so", 10);
  write(places_.sealLog, 50);
  const RequestLeftovers before(places_);

  write(c / "torch-extensions" / "old-1" / "old.so", 1000);  // grown by 990
  write(c / "triton" / "a.bin", 1000);
  std::ofstream(places_.sealLog, std::ios::app) << std::string(200, 'j');

  const LeftoverReport r = before.cleanUp();
  EXPECT_TRUE(r.overQuota);
  EXPECT_FALSE(fs::exists(c / "torch-extensions" / "old-1" / "old.so"));
  EXPECT_FALSE(fs::exists(c / "triton" / "a.bin"));
  EXPECT_TRUE(fs::exists(c / "torch-extensions" / "kept-1" / "kept.so")) << "not written by the request";
  EXPECT_TRUE(r.sealLogCut);
  EXPECT_EQ(fs::file_size(places_.sealLog), 50u);
}
