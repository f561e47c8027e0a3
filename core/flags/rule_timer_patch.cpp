// timer-patch: the candidate rebinds a timing or synchronization function (assignment, setattr, or
// mock.patch), or its C++ source defines a CUDA timing function itself, so the harness's clock measures
// something else.
#include <algorithm>
#include <string>
#include <string_view>

#include "core/flags/cpp_tokens.h"
#include "core/flags/rebinding.h"
#include "core/flags/rule_context.h"

namespace ks {

namespace {

constexpr std::string_view kTimers[] = {"torch.cuda.Event",
                                        "torch.cuda.Event.record",
                                        "torch.cuda.Event.synchronize",
                                        "torch.cuda.Event.elapsed_time",
                                        "torch.cuda.Event.query",
                                        "torch.cuda.Event.wait",
                                        "torch.cuda.synchronize",
                                        "torch.cuda.current_stream",
                                        "torch.cuda.default_stream",
                                        "torch.cuda.Stream.synchronize",
                                        "torch.cuda.Stream.query",
                                        "torch.cuda.streams.Event",
                                        "torch.Event",
                                        "torch.cuda.elapsed_time",
                                        "torch.synchronize",
                                        "torch.accelerator.synchronize",
                                        "time.time",
                                        "time.time_ns",
                                        "time.perf_counter",
                                        "time.perf_counter_ns",
                                        "time.monotonic",
                                        "time.monotonic_ns",
                                        "time.process_time",
                                        "time.process_time_ns",
                                        "time.thread_time",
                                        "timeit.default_timer",
                                        "triton.testing.do_bench",
                                        "torch.utils.benchmark.Timer",
                                        "torch.utils.benchmark.Timer.timeit",
                                        "torch.utils.benchmark.Timer.blocked_autorange"};

// CUDA runtime and driver entry points a harness times with; a definition in the candidate's C++ replaces
// them for every caller resolved against the extension.
constexpr std::string_view kCudaTimers[] = {
    "cudaEventElapsedTime",  "cudaEventRecord",    "cudaEventSynchronize", "cudaDeviceSynchronize",
    "cudaStreamSynchronize", "cuEventElapsedTime", "cuEventRecord",        "cuCtxSynchronize"};

bool isTimer(std::string_view resolved) {
  return std::find(std::begin(kTimers), std::end(kTimers), resolved) != std::end(kTimers);
}

}  // namespace

void checkTimerPatch(const RuleContext& ctx, std::vector<Flag>& out) {
  const py::PyModule& m = ctx.candidate;
  std::vector<int> lines;
  std::vector<std::string> patched;
  auto note = [&](const std::string& what, int line) {
    if (std::find(patched.begin(), patched.end(), what) == patched.end()) patched.push_back(what);
    lines.push_back(line);
  };
  const auto watched = [](std::string_view name) {
    return isTimer(name) || name == "sys.modules['time']" || name == "sys.modules['torch.cuda']" ||
           name == "sys.modules['timeit']";
  };
  for (const Rebinding& r : findRebindings(m, watched)) note(r.name, r.line);
  // Embedded C++ that defines a CUDA timing entry point itself: cudaError_t cudaEventElapsedTime(...) { ... }
  for (const EmbeddedSource& src : ctx.embedded().sources) {
    const CppTokens t(src.text);
    for (int i = 1; i < t.size(); ++i) {
      if (std::find(std::begin(kCudaTimers), std::end(kCudaTimers), t.text(i)) == std::end(kCudaTimers) ||
          !t.is(i + 1, "(") || t.match(i + 1) < 0 || !t.is(t.match(i + 1) + 1, "{") ||
          !t.isIdentifier(i - 1) || t.is(i - 1, "return"))
        continue;
      note(std::string(t.text(i)) + " (defined in the C++ source)", src.pythonLine(t.line(i)));
    }
  }
  if (patched.empty()) return;
  std::string what;
  for (const std::string& p : patched) what += (what.empty() ? "" : ", ") + p;
  out.push_back(makeFlag("timer-patch", FlagSeverity::Hack, 0.9,
                         "Replaces " + what + ", which the timing harness relies on.", lines,
                         excerptOf(m, lines)));
}

}  // namespace ks
