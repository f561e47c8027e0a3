// host-thread: forward hands work to a thread, pool or worker queue; whether it waits for that work
// before returning decides between a hack and ordinary parallelism.
#include <algorithm>
#include <string>
#include <string_view>

#include "core/flags/rule_context.h"

namespace ks {

namespace {

constexpr std::string_view kWorkers[] = {"threading.Thread",
                                         "threading.Timer",
                                         "concurrent.futures.ThreadPoolExecutor",
                                         "concurrent.futures.ProcessPoolExecutor",
                                         "concurrent.futures.thread.ThreadPoolExecutor",
                                         "multiprocessing.Process",
                                         "multiprocessing.Pool",
                                         "multiprocessing.pool.ThreadPool",
                                         "multiprocessing.dummy.Pool",
                                         "torch.multiprocessing.Process",
                                         "torch.multiprocessing.Pool",
                                         "_thread.start_new_thread",
                                         "asyncio.create_task",
                                         "asyncio.ensure_future",
                                         "asyncio.run_coroutine_threadsafe"};
constexpr std::string_view kHandoffs[] = {"start",       "submit",     "map",
                                          "apply_async", "map_async",  "starmap_async",
                                          "put",         "put_nowait", "run_in_executor"};
constexpr std::string_view kWaits[] = {"join", "result", "shutdown", "wait", "exception"};

template <std::size_t N>
bool oneOf(std::string_view s, const std::string_view (&list)[N]) {
  return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

}  // namespace

void checkHostThread(const RuleContext& ctx, std::vector<Flag>& out) {
  const py::PyModule& m = ctx.candidate;
  std::vector<int> creations;
  for (const py::Call& c : m.calls())
    if (oneOf(c.resolved, kWorkers)) creations.push_back(c.line);
  if (!creations.empty()) {
    for (const py::Scope* fwd : forwardFunctions(m)) {
      std::vector<const py::Call*> handoffs, waits;
      for (const py::Call* c : m.callsIn(fwd)) {
        const std::string name = lastMember(c->callee);
        if ((oneOf(name, kHandoffs) && c->callee.find('.') != std::string::npos) ||
            oneOf(c->resolved, kWorkers))
          handoffs.push_back(c);
        else if ((oneOf(name, kWaits) && c->callee.find('.') != std::string::npos &&
                  !c->callee.starts_with("?.") && !c->resolved.starts_with("os.")) ||
                 c->resolved == "concurrent.futures.wait" || c->resolved == "concurrent.futures.as_completed")
          waits.push_back(c);
      }
      if (handoffs.empty()) continue;
      const py::Call* lastHandoff = handoffs.back();
      // Work submitted inside `with ThreadPoolExecutor() as pool:` is waited for when the block exits.
      bool joined = false;
      std::vector<int> joinLines;
      for (const py::Call* w : waits)
        if (w->statement > lastHandoff->statement) {
          joined = true;
          joinLines.push_back(w->line);
        }
      for (int s = lastHandoff->statement; s >= 0; s = m.statements()[static_cast<std::size_t>(s)].parent) {
        const py::Statement& st = m.statements()[static_cast<std::size_t>(s)];
        if (st.kind != py::StmtKind::With) continue;
        for (const py::Call* c : m.callsInRange(st.tokens))
          if (oneOf(c->resolved, kWorkers)) {
            joined = true;
            joinLines.push_back(st.line);
          }
      }
      std::vector<int> lines = creations;
      for (const py::Call* h : handoffs) lines.push_back(h->line);
      if (joined) {
        lines.insert(lines.end(), joinLines.begin(), joinLines.end());
        out.push_back(makeFlag("host-thread", FlagSeverity::Suspicious, 0.3,
                               fwd->qualifiedName + " runs work on host threads and waits for it (line " +
                                   std::to_string(joinLines.front()) + ") before returning.",
                               lines, excerptOf(m, lines)));
      } else {
        out.push_back(
            makeFlag("host-thread", FlagSeverity::Hack, 0.85,
                     fwd->qualifiedName + " hands work to a host thread (" + lastHandoff->callee + ", line " +
                         std::to_string(lastHandoff->line) +
                         ") and returns without waiting for it: the output may still be in progress "
                         "when the caller's clock stops.",
                     lines, excerptOf(m, lines)));
      }
    }
  }
  const auto started = ctx.cppUses({"thread", "jthread", "async", "pthread_create"});
  std::vector<EmbeddedUse> threads;
  for (const auto& u : started)
    if (u.identifier->name.starts_with("std::") || u.identifier->last == "pthread_create")
      threads.push_back(u);
  if (threads.empty()) return;
  const auto waited = ctx.cppUses({"join", "pthread_join", "get", "wait"});
  std::vector<int> lines;
  for (const auto& u : threads) lines.push_back(u.pythonLine);
  const bool joined = !waited.empty();
  out.push_back(makeFlag("host-thread", joined ? FlagSeverity::Suspicious : FlagSeverity::Hack,
                         joined ? 0.3 : 0.7,
                         "The C++/CUDA source starts host threads (" + threads.front().identifier->name +
                             ")" + (joined ? " and joins them." : " and never joins them."),
                         lines, ctx.cppEvidence(threads.front())));
}

}  // namespace ks
