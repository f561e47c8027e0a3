#include "app/kscope/batch_prebuild.h"

#include <chrono>
#include <mutex>

#include "app/kscope/runner_pool.h"
#include "core/runs/evaluation_request.h"
#include "core/runs/outcome_json.h"
#include "core/supervisor/runner_supervisor.h"

namespace ks::cli {

bool compilesCode(const Candidate& candidate) {
  if (!candidate.code) return false;
  if (candidate.language == CodeLanguage::Cuda) return true;
  return candidate.code->find("cpp_extension") != std::string::npos ||
         candidate.code->find("load_inline") != std::string::npos;
}

bool PrebuildOutcome::final() const {
  if (!attempted || event.value("event", "") != "error" || !event.contains("error")) return false;
  const std::string kind = event["error"].value("kind", ""), phase = event["error"].value("phase", "");
  // A compiler's verdict is final; so is a candidate's first call that outlived its deadline (a hung
  // kernel would hang the timing run too, for the whole correctness deadline). A build that ran out of
  // time, a crash or an error of the program is left to the timing run, which reports it in full.
  return kind == "build" || (kind == "timeout" && phase != "build");
}

std::vector<PrebuildOutcome> prebuildAll(
    const std::vector<BatchEntry>& entries, const supervisor::SupervisorOptions& base,
    const protocol::Options& options, int jobs, const std::function<bool()>& stopRequested,
    const std::function<void(std::size_t, const PrebuildOutcome&, std::size_t, std::size_t)>& progress) {
  std::vector<PrebuildOutcome> outcomes(entries.size());
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (compilesCode(*entries[i].candidate)) todo.push_back(i);
  if (todo.empty()) return outcomes;

  RunnerPool pool(base, "prebuild", jobs);
  std::mutex mutex;
  std::size_t done = 0;
  pool.forEach(todo.size(), stopRequested, [&](std::size_t k, supervisor::RunnerSupervisor& runner) {
    const std::size_t i = todo[k];
    const BatchEntry& e = entries[i];
    PrebuildOutcome outcome;
    outcome.attempted = true;
    const auto started = std::chrono::steady_clock::now();
    auto request = runs::evaluationRequest(*e.task, *e.candidate, options);
    if (auto* why = std::get_if<std::string>(&request)) {
      outcome.event = {{"event", "error"}, {"error", {{"kind", "protocol"}, {"message", *why}}}};
      outcome.end =
          protocol::ErrorEvent{.id = "", .error = {.kind = protocol::ErrorKind::Protocol, .message = *why}};
    } else {
      protocol::Request r = std::get<protocol::Request>(std::move(request));
      r.op = protocol::Op::Build;
      outcome.end = runner.request(std::move(r)).end;
      outcome.event = runs::endEventJson(outcome.end);
    }
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (pool.stopping()) return;  // a cancelled build says nothing about the candidate
    std::lock_guard lock(mutex);
    outcomes[i] = std::move(outcome);
    ++done;
    if (progress) progress(i, outcomes[i], done, todo.size());
  });
  return outcomes;
}

}  // namespace ks::cli
