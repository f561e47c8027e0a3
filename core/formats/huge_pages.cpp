#include "core/formats/huge_pages.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace ks {
namespace {

constexpr const char* kMarker = "KSCOPE_HUGEPAGES_REEXEC";  // holds GLIBC_TUNABLES as it was, plus "="
// Huge pages for the heap, and the heap grown 64 MiB at a time (huge_pages.h).
constexpr const char* kTunable = "glibc.malloc.hugetlb=1";
constexpr const char* kTopPad = "glibc.malloc.top_pad";
constexpr const char* kTopPadTunable = "glibc.malloc.top_pad=67108864";

bool kernelGivesOnRequest() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(in, line) && line.find("[madvise]") != std::string::npos;
}

}  // namespace

void preferHugePages(char** argv) {
#if defined(__GLIBC__)
  if (const char* marker = std::getenv(kMarker)) {  // re-executed: put the environment back
    const std::string original = marker;            // "=" + what GLIBC_TUNABLES was ("=" alone: unset)
    if (original.size() > 1)
      ::setenv("GLIBC_TUNABLES", original.c_str() + 1, 1);
    else
      ::unsetenv("GLIBC_TUNABLES");
    ::unsetenv(kMarker);
    return;
  }
  if (!argv || !argv[0] || std::getenv("KSCOPE_NO_HUGEPAGES")) return;
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables && std::strstr(tunables, "glibc.malloc.hugetlb")) return;  // the user's choice
  if (!kernelGivesOnRequest()) return;
  const bool had = tunables != nullptr;
  const std::string original = had ? tunables : "";
  std::string value = original.empty() ? kTunable : original + ":" + kTunable;
  if (!std::strstr(original.c_str(), kTopPad)) value += std::string(":") + kTopPadTunable;  // or the user's
  ::setenv(kMarker, ("=" + original).c_str(), 1);
  ::setenv("GLIBC_TUNABLES", value.c_str(), 1);
  ::execv("/proc/self/exe", argv);
  // The exec failed: carry on as we are.
  ::unsetenv(kMarker);
  if (had)
    ::setenv("GLIBC_TUNABLES", original.c_str(), 1);
  else
    ::unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
#endif
}

}  // namespace ks
