// huge_pages_probe: calls preferHugePages as the apps do, then prints what glibc's heap does with the
// tunables this process started with, and what its children would inherit, one a line:
//   the bytes the heap grew by when a run of 64 KiB allocations first needed more (glibc.malloc.top_pad);
//   "hg" when the heap is marked for transparent huge pages (VmFlags in /proc/self/smaps, glibc.malloc.hugetlb),
//   "-" when not;
//   GLIBC_TUNABLES as it is now ("-" when unset).
// huge_pages_test.cpp runs it. (/proc/self/environ does not tell: glibc edits the tunables string it read.)
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/formats/huge_pages.h"

int main(int, char** argv) {
  ks::preferHugePages(argv);
  std::vector<void*> blocks;
  const auto start = reinterpret_cast<std::uintptr_t>(::sbrk(0));
  std::uintptr_t grown = 0;
  for (int i = 0; i < 4096 && grown == 0; ++i) {  // 64 KiB is below the mmap threshold: from the heap
    blocks.push_back(std::malloc(64 << 10));
    grown = reinterpret_cast<std::uintptr_t>(::sbrk(0)) - start;
  }
  bool hugePages = false;
  std::ifstream smaps("/proc/self/smaps");
  bool inHeap = false;
  for (std::string line; std::getline(smaps, line);) {
    if (!line.empty() && std::isxdigit(static_cast<unsigned char>(line[0])) && line.find(" ") != std::string::npos &&
        line.find(':') > line.find(' '))
      inHeap = line.find("[heap]") != std::string::npos;
    else if (inHeap && line.rfind("VmFlags:", 0) == 0 && line.find(" hg") != std::string::npos)
      hugePages = true;
  }
  const char* now = std::getenv("GLIBC_TUNABLES");
  std::printf("%ju\n%s\n%s\n", static_cast<std::uintmax_t>(grown), hugePages ? "hg" : "-", now ? now : "-");
  for (void* b : blocks) std::free(b);
  return 0;
}
