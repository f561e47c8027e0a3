#include "app/kernelscope/run_worker.h"

#include <cstdint>

#include "core/cluster/gpu_list.h"
#include "core/protocol/json_codec.h"
#include "core/runs/record_result.h"
#include "core/supervisor/supervisor_options.h"

namespace ks {

RunWorker::RunWorker(std::filesystem::path runner, std::filesystem::path storePath, RunnerSlot slot)
    : m_runner(std::move(runner)), m_storePath(std::move(storePath)), m_slot(std::move(slot)) {}

RunWorker::~RunWorker() = default;

supervisor::RunnerSupervisor& RunWorker::supervisor(const RunLimits& limits) {
  if (!m_supervisor || limits != m_limits) {
    const auto memory = supervisor::chooseMemoryLimit(limits.memoryGiB > 0 ? limits.memoryGiB * 1024 : -1,
                                                      m_slot.count, "Memory")
                            .bytes;
    supervisor::SupervisorOptions options = supervisor::clientSupervisorOptions(m_runner, "", memory);
    if (!m_slot.gpu.empty())  // the same runner options as kscope batch --gpus gives each of its runners
      options = supervisor::poolRunnerOptions(options, "gpu", m_slot.index, cluster::gpuRunnerEnvironment(m_slot.gpu));
    options.maxPhaseSeconds = limits.phaseSeconds;
    auto fresh = std::make_unique<supervisor::RunnerSupervisor>(options);
    std::unique_ptr<supervisor::RunnerSupervisor> old;
    {
      std::lock_guard lock(m_supervisorMutex);
      old = std::exchange(m_supervisor, std::move(fresh));
    }
    m_limits = limits;
  }  // `old` shuts its runner down here, outside the lock
  return *m_supervisor;
}

RunWorker::Finished RunWorker::evaluate(const RunJob& job,
                                        const supervisor::RunnerSupervisor::EventSink& sink) {
  Finished finished;
  supervisor::RequestOutcome outcome;
  if (cancelled(job.id)) {
    protocol::ErrorEvent e;
    e.error.kind = protocol::ErrorKind::Cancelled;
    e.error.message = "cancelled before it started";
    outcome.end = e;
  } else {
    supervisor::RunnerSupervisor& runner = supervisor(job.limits);
    outcome = runner.request(job.request, [&](const protocol::Event& event) {
      if (cancelled(job.id)) runner.cancel();  // a cancel that came before the request was in flight
      if (sink) sink(event);
    });
  }
  // The row is stamped with the time now: shown with the result, stored or not.
  store::StoredResult row = runs::resultRow(store::fromEndEvent(outcome.end), job.subject,
                                            job.request.options.device, "kernelscope");
  const bool wasCancelled = outcome.error() && outcome.error()->error.kind == protocol::ErrorKind::Cancelled;
  if (!wasCancelled) {  // a run the user stopped is not a result
    if (!m_store) {
      auto opened = store::ResultStore::open(m_storePath);
      if (opened)
        m_store = std::move(*opened.value);
      else
        finished.storeError = opened.error;
    }
    if (m_store) {
      runs::RecordedResult recorded = runs::appendResult(*m_store, std::move(row));
      row = std::move(recorded.row);
      finished.storeError = std::move(recorded.storeError);
    }
  }
  finished.run = runs::measuredRun(std::move(row));  // typed from the outcome on: no JSON read back
  return finished;
}

std::variant<protocol::Environment, std::string> RunWorker::hello() {
  protocol::Request request;
  request.op = protocol::Op::Hello;
  supervisor::RequestOutcome outcome = supervisor(m_limits).request(request);
  if (const auto* error = outcome.error()) return error->error.message;
  auto environment = protocol::decodeHelloPayload(outcome.result()->result);
  if (!environment.value) return "the runner's hello does not read: " + environment.error;
  return *environment.value;
}

void RunWorker::warmUp() {
  protocol::Request request;
  request.op = protocol::Op::WarmUp;      // the runner's default device: the one hello reported
  supervisor(m_limits).request(request);  // a failed warm-up costs the first run its start-up, nothing more
}

void RunWorker::stopRunner() {
  if (m_supervisor) m_supervisor->stopRunner();
}

void RunWorker::cancelThrough(int jobId) {
  int previous = m_cancelledThrough.load();
  while (previous < jobId && !m_cancelledThrough.compare_exchange_weak(previous, jobId)) {
  }
  std::lock_guard lock(m_supervisorMutex);
  if (m_supervisor) m_supervisor->cancel();
}

}  // namespace ks
