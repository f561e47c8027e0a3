// preferHugePages (core/formats/huge_pages.h): the re-executed process starts with glibc's heap tunables,
// and the environment it hands on (to the runner) is the one it was given.
#include "core/formats/huge_pages.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include "ks_test_paths.h"

namespace {

bool kernelGivesHugePagesOnRequest() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(in, line) && line.find("[madvise]") != std::string::npos;
}

struct Seen {
  long long heapStep = -1;  // bytes the heap grew by when it first had to (glibc.malloc.top_pad)
  bool hugePages = false;   // the heap is marked for transparent huge pages (glibc.malloc.hugetlb)
  std::string now;          // GLIBC_TUNABLES the program's children inherit
};

Seen runProbe(const std::string& environment) {
  const std::string command = "env -u GLIBC_TUNABLES -u KSCOPE_NO_HUGEPAGES " + environment + " " +
                              KS_BINARY_DIR "/bin/huge_pages_probe";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  if (!pipe) return {};
  std::array<char, 4096> line{};
  Seen seen;
  if (std::fgets(line.data(), line.size(), pipe.get())) seen.heapStep = std::atoll(line.data());
  if (std::fgets(line.data(), line.size(), pipe.get())) seen.hugePages = std::string(line.data()) == "hg\n";
  if (std::fgets(line.data(), line.size(), pipe.get())) seen.now = line.data();
  if (!seen.now.empty()) seen.now.pop_back();
  return seen;
}

constexpr long long kTopPad = 64ll << 20;

}  // namespace

TEST(HugePages, TheHeapGetsHugePagesAndGrows64MiBAtATimeAndChildrenInheritNothing) {
  if (!kernelGivesHugePagesOnRequest()) GTEST_SKIP() << "transparent huge pages are not in madvise mode here";
  const Seen seen = runProbe("");
  EXPECT_GE(seen.heapStep, kTopPad);
  EXPECT_TRUE(seen.hugePages);
  EXPECT_EQ(seen.now, "-");
}

TEST(HugePages, TheUsersOwnTunablesAreKeptAndTheirTopPadWins) {
  if (!kernelGivesHugePagesOnRequest()) GTEST_SKIP() << "transparent huge pages are not in madvise mode here";
  Seen seen = runProbe("GLIBC_TUNABLES=glibc.malloc.arena_max=2");
  EXPECT_GE(seen.heapStep, kTopPad);
  EXPECT_TRUE(seen.hugePages);
  EXPECT_EQ(seen.now, "glibc.malloc.arena_max=2");
  seen = runProbe("GLIBC_TUNABLES=glibc.malloc.top_pad=4096");
  EXPECT_LT(seen.heapStep, 4 << 20);  // the step up to the next 2 MiB huge page, not 64 MiB
  EXPECT_TRUE(seen.hugePages);
  EXPECT_EQ(seen.now, "glibc.malloc.top_pad=4096");
}

TEST(HugePages, NoReExecutionWhenTheUserSaysNoOrChoseHugePagesThemselves) {
  Seen seen = runProbe("KSCOPE_NO_HUGEPAGES=1");
  EXPECT_LT(seen.heapStep, 1 << 20);  // glibc's own 128 KiB pad
  EXPECT_FALSE(seen.hugePages);
  EXPECT_EQ(seen.now, "-");
  seen = runProbe("GLIBC_TUNABLES=glibc.malloc.hugetlb=0");
  EXPECT_LT(seen.heapStep, 1 << 20);
  EXPECT_FALSE(seen.hugePages);
  EXPECT_EQ(seen.now, "glibc.malloc.hugetlb=0");
}
