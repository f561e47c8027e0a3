// kscope-contain-probe: applies chosen pieces of the runner's containment to itself, then executes a
// command, so that a machine's reaction to each piece can be seen alone (docs/security.md, "On the GPU
// machine"). Not part of the product: a diagnostic, built with the sandbox tests.
//
//   kscope-contain-probe [--landlock] [--no-scope] [--no-devices] [--proc-self] [--seccomp] [--writable DIR]... -- CMD ARGS...
//
// --landlock    restrictWrites() with the writable folders (default: $TMPDIR or /tmp) and the device list
// --no-scope    without Landlock's ABI-6 scopes (signals, abstract Unix sockets)
// --no-devices  without the /dev write rules (CUDA's /dev/nvidia* among them)
// --proc-self   with the process's own /proc/<pid> writable (as the runner has it: CUDA names threads there)
// --seccomp     installNetworkFilter()
// It prints what it applied on stderr, then replaces itself with CMD (the rules stay across exec).
#include <unistd.h>

#include <cerrno>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/sandbox/landlock_rules.h"
#include "core/sandbox/network_filter.h"

int main(int argc, char** argv) {
  bool landlock = false, seccomp = false, scope = true, devices = true, procSelf = false;
  std::vector<std::filesystem::path> writable;
  int at = 1;
  for (; at < argc; ++at) {
    const std::string a = argv[at];
    if (a == "--") {
      ++at;
      break;
    }
    if (a == "--landlock") landlock = true;
    else if (a == "--seccomp") seccomp = true;
    else if (a == "--no-scope") scope = false;
    else if (a == "--no-devices") devices = false;
    else if (a == "--proc-self") procSelf = true;
    else if (a == "--writable" && at + 1 < argc) writable.emplace_back(argv[++at]);
    else {
      std::fprintf(stderr, "kscope-contain-probe: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (at >= argc) {
    std::fprintf(stderr, "usage: kscope-contain-probe [--landlock] [--no-scope] [--no-devices] [--proc-self] [--seccomp] "
                         "[--writable DIR]... -- CMD ARGS...\n");
    return 2;
  }
  if (landlock) {
    ks::sandbox::WriteRules rules;
    if (writable.empty()) writable.emplace_back(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
    rules.folders = writable;
    if (procSelf) rules.folders.push_back(std::filesystem::path("/proc") / std::to_string(getpid()));
    if (devices) rules.devices = ks::sandbox::deviceWriteTargets();
    rules.scopeIpc = scope;
    const auto out = ks::sandbox::restrictWrites(rules);
    std::fprintf(stderr, "probe: landlock abi=%d scope=%d devices=%zu%s%s\n", out.abi, scope ? 1 : 0,
                 rules.devices.size(), out.error.empty() ? "" : " error=", out.error.c_str());
    for (const auto& d : rules.devices) std::fprintf(stderr, "probe:   device %s\n", d.c_str());
    if (out.abi == 0) return 3;
  }
  if (seccomp) {
    const std::string why = ks::sandbox::installNetworkFilter();
    std::fprintf(stderr, "probe: seccomp %s\n", why.empty() ? "on" : why.c_str());
    if (!why.empty()) return 3;
  }
  execvp(argv[at], argv + at);
  std::fprintf(stderr, "probe: exec %s: %s\n", argv[at], std::strerror(errno));
  return 127;
}
