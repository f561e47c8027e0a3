// kscope-runner: reads requests on stdin and writes events on stdout (docs/runner-protocol.md). Exit status:
// 0 after shutdown or end of input, 2 when Python or torch cannot start, 3 when the CUDA context was lost or
// the answer was tampered with, 1 on an unexpected internal failure (reported on stderr). It splits into a
// judge, which keeps stdin/stdout, and an executor, which runs programs (executor_split.h, judge.h).
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "app/kscope-runner/executor_split.h"
#include "app/kscope-runner/judge.h"
#include "app/kscope-runner/protocol_channel.h"
#include "app/kscope-runner/request_loop.h"
#include "core/engine/engine.h"
#include "core/engine/python_interpreter.h"
#include "core/sandbox/contain_candidate_process.h"
#include "core/sandbox/descendants.h"
#include "core/version/version.h"

namespace {

namespace fs = std::filesystem;

fs::path defaultScratchRoot() {
  const char* tmp = std::getenv("TMPDIR");
  return fs::path(tmp && *tmp ? tmp : "/tmp") / ("kscope-runner-" + std::to_string(getpid()));
}

fs::path defaultCacheRoot() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return fs::path(xdg) / "kernelscope" / "build";
  const char* home = std::getenv("HOME");
  return fs::path(home && *home ? home : "/tmp") / ".cache" / "kernelscope" / "build";
}

int run() {
  std::signal(SIGPIPE, SIG_IGN);  // a vanished client shows up as failed writes and end of input
  auto channel = ks::runner::ProtocolChannel::open();
  if (auto* why = std::get_if<std::string>(&channel)) {
    std::fprintf(stderr, "kscope-runner: %s\n", why->c_str());
    return 1;
  }
  // Before Python, torch or CUDA start: the judge keeps the client's descriptors, the executor runs the rest.
  auto split = ks::runner::splitJudgeAndExecutor(std::get<ks::runner::ProtocolChannel>(channel));
  if (auto* why = std::get_if<std::string>(&split)) {
    std::fprintf(stderr, "kscope-runner: %s\n", why->c_str());
    return 1;
  }
  const auto& side = std::get<ks::runner::Split>(split);
  if (!side.executor) {
    // Orphans of the executor's children come to the judge, which ends them after every answer.
    ks::sandbox::becomeChildSubreaper();
    ks::runner::JudgeSettings settings;
    settings.defaultCacheRoot = defaultCacheRoot();
    if (const char* quota = std::getenv("KSCOPE_CACHE_QUOTA_MIB"); quota && std::atoll(quota) > 0)
      settings.cacheQuotaBytes = static_cast<std::uint64_t>(std::atoll(quota)) << 20;
    return ks::runner::runJudge(std::get<ks::runner::ProtocolChannel>(channel), side.link, side.executorPid,
                                settings);
  }
  auto link = ks::runner::ProtocolChannel::overSocket(side.link);
  if (auto* why = std::get_if<std::string>(&link)) {
    std::fprintf(stderr, "kscope-runner: %s\n", why->c_str());
    return 1;
  }
  const fs::path scratchRoot = defaultScratchRoot(), cacheRoot = defaultCacheRoot();
  auto containment = ks::sandbox::containCandidateProcess({scratchRoot, cacheRoot});  // docs/security.md
  auto python = ks::engine::PythonInterpreter::start();
  if (auto* why = std::get_if<std::string>(&python)) {
    std::fprintf(stderr, "kscope-runner: %s\n", why->c_str());
    return 2;
  }
  const std::string runner = ks::version::line("kscope-runner");
  ks::engine::Engine engine({runner, scratchRoot, cacheRoot, containment});
  auto& protocol = std::get<ks::runner::ProtocolChannel>(link);
  protocol.write(ks::protocol::ReadyEvent{ks::protocol::kProtocolVersion, runner, getpid()});
  return ks::runner::serveRequests(protocol, engine);
}

}  // namespace

int main(int argc, char** argv) {
  // The runner speaks the protocol on stdin/stdout; these two flags are for people and packaging alone.
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("%s\n", ks::version::line("kscope-runner").c_str());
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "--help") == 0) {
    std::printf(
        "Usage: kscope-runner\n"
        "The only KernelScope process that executes kernels. It reads requests on standard input and\n"
        "writes events on standard output (docs/runner-protocol.md); kernelscope and kscope start it.\n"
        "  --version  print the version and exit\n"
        "  --help     print this text and exit\n");
    return 0;
  }
  if (argc > 1) {
    std::fprintf(stderr, "kscope-runner: unknown argument %s (it takes none; --help says what it does)\n",
                 argv[1]);
    return 1;
  }
  try {
    return run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kscope-runner: internal error: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "kscope-runner: internal error (unknown exception)\n");
  }
  return 1;
}
