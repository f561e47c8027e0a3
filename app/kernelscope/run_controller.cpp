#include "app/kernelscope/run_controller.h"

#include <QMetaObject>
#include <QThread>
#include <algorithm>
#include <cstdlib>

#include "app/kernelscope/run_worker.h"
#include "core/cluster/gpu_list.h"
#include "core/runs/evaluation_request.h"
#include "core/runs/fallback_note.h"
#include "core/runs/program_compile.h"
#include "core/supervisor/runner_location.h"
#include "views/logic/loaded_run.h"
#include "views/logic/phase_estimate.h"

namespace ks {

// One runner of the queue: its RunWorker on a thread of its own (what is posted to `context` runs there), the
// job in flight and what its progress line says.
struct RunController::Lane {
  std::string gpu;  // its runner's CUDA_VISIBLE_DEVICES; "" for the one runner without a GPU list
  std::unique_ptr<RunWorker> worker;
  QThread thread;
  QObject* context = nullptr;
  std::unique_ptr<RunJob> inFlight;
  QElapsedTimer jobClock;
  QString phase;  // of the job in flight: "correctness 1/5 · 3 min so far · about 12 min left"
  // The phase in progress and its steps, for the estimate (views/logic/phase_estimate.h): when it (re)started
  // and how many of its steps were done then; a build that interrupts it restarts the clock.
  QString phaseName;
  QElapsedTimer phaseClock;
  int phaseDoneAtStart = 0, phaseDone = 0, phaseTotal = 0;
  bool buildReported = false, buildFailed = false;  // a `build` event came; a candidate build failed
  QString buildNote;  // runs::buildEventNote of the build event, else "a build took 41 s"; for the whole job

  ~Lane() {  // its runner was stopped, or is being stopped on its thread: the thread ends after that
    thread.quit();
    thread.wait();
    delete context;
  }
  QString name() const {
    return gpu.empty() ? QObject::tr("runner") : QObject::tr("GPU %1").arg(QString::fromStdString(gpu));
  }
};

RunController::RunController(const std::filesystem::path& runner, const std::filesystem::path& storePath,
                             QObject* parent)
    : QObject(parent), m_storePath(storePath) {
  const supervisor::RunnerLocation location = supervisor::findRunner(runner);
  if (!location.found()) m_runnerProblem = QString::fromStdString(location.error);
  m_runnerPath = location.path;
  setGpus({});
  m_tick.setInterval(5000);
  connect(&m_tick, &QTimer::timeout, this, [this] {
    for (auto& lane : m_lanes)
      if (lane->inFlight && !lane->phaseName.isEmpty()) lane->phase = phaseText(*lane);  // its time moved on
    emitProgress();
  });
  connect(this, &RunController::environmentChanged, this,
          [this](const protocol::Environment& environment) { m_environment = environment; });
}

RunController::~RunController() {
  m_queue.clear();
  for (auto& lane : m_lanes) {
    lane->worker->cancelThrough(m_nextId);  // whatever is in flight, a hello included
    QMetaObject::invokeMethod(
        lane->context, [worker = lane->worker.get()] { worker->stopRunner(); }, Qt::BlockingQueuedConnection);
  }
  m_lanes.clear();
  m_retiring.clear();  // each waits for its thread, which stops its runner first
}

template <class Work>
void RunController::onWorker(Lane& lane, Work&& work) {
  QMetaObject::invokeMethod(lane.context, std::forward<Work>(work), Qt::QueuedConnection);
}

RunController::Lane* RunController::makeLane(int index, int count, const std::string& gpu) {
  auto lane = std::make_unique<Lane>();
  lane->gpu = gpu;
  lane->worker = std::make_unique<RunWorker>(m_runnerPath, m_storePath,
                                             RunnerSlot{.index = index, .count = count, .gpu = gpu});
  lane->context = new QObject;
  lane->thread.setObjectName(gpu.empty() ? QStringLiteral("kscope-runner supervisor")
                                         : QStringLiteral("kscope-runner supervisor, GPU %1")
                                               .arg(QString::fromStdString(gpu)));
  lane->context->moveToThread(&lane->thread);
  lane->thread.start();
  m_lanes.push_back(std::move(lane));
  return m_lanes.back().get();
}

// Stops a lane's runner on its own thread, so that the GUI does not wait for it; the lane is deleted once
// its thread has ended.
void RunController::retire(std::unique_ptr<Lane> lane) {
  Lane* raw = lane.get();
  connect(&raw->thread, &QThread::finished, this, [this, raw] {
    const auto it = std::find_if(m_retiring.begin(), m_retiring.end(), [raw](const auto& l) { return l.get() == raw; });
    if (it != m_retiring.end()) m_retiring.erase(it);
  });
  onWorker(*raw, [worker = raw->worker.get()] {
    worker->stopRunner();
    QThread::currentThread()->quit();
  });
  m_retiring.push_back(std::move(lane));
}

void RunController::ensureLanes() {
  if (busyLanes() > 0) return;
  std::vector<std::string> current;
  for (const auto& lane : m_lanes) current.push_back(lane->gpu);
  if (current == m_gpuIds) return;
  for (auto& lane : m_lanes) retire(std::move(lane));
  m_lanes.clear();
  const int count = static_cast<int>(m_gpuIds.size());
  for (int i = 0; i < count; ++i) makeLane(i, count, m_gpuIds[std::size_t(i)]);
}

bool RunController::ours(const Lane* lane) const {
  return std::any_of(m_lanes.begin(), m_lanes.end(), [lane](const auto& l) { return l.get() == lane; });
}

int RunController::busyLanes() const {
  return static_cast<int>(
      std::count_if(m_lanes.begin(), m_lanes.end(), [](const auto& lane) { return lane->inFlight != nullptr; }));
}

void RunController::setChoices(const runs::RunChoices& choices, const RunLimits& limits) {
  m_choices = choices;
  m_limits = limits;
}

QString RunController::setGpus(const QString& spec) {
  const cluster::GpuList list = cluster::gpuRunners(spec.toStdString(), [](const char* n) { return std::getenv(n); });
  m_gpuSource = QString::fromStdString(list.source);
  if (!list.error.empty()) {
    m_gpuProblem = tr("GPUs \"%1\": %2").arg(spec, QString::fromStdString(list.error));
    return m_gpuProblem;
  }
  m_gpuProblem.clear();
  m_gpuIds = list.ids;
  return {};
}

QStringList RunController::gpus() const {
  QStringList ids;
  for (const std::string& id : m_gpuIds) ids << QString::fromStdString(id);
  return ids;
}

QStringList RunController::activity() const {
  QStringList lines;
  for (const auto& lane : m_lanes)
    lines << (lane->inFlight ? QStringLiteral("%1 · %2 · %3").arg(lane->name(), lane->inFlight->label(), lane->phase)
                             : tr("%1 · idle").arg(lane->name()));
  return lines;
}

std::variant<protocol::Request, QString> RunController::requestFor(const std::shared_ptr<const LoadedRun>& run,
                                                                   int row, const QString& program) const {
  const Candidate* recorded = run && row >= 0 && row < run->rowCount() ? run->candidate(row) : nullptr;
  if (!recorded) return tr("Select a candidate to run.");
  Candidate candidate = *recorded;
  candidate.code = program.toStdString();
  runs::RunChoices choices = m_choices;
  // A CUDA-L1 candidate on a GPU: CUDA-L1's own evaluation beside KernelScope's (runs::cudaL1EvalByDefault).
  if (!choices.cudaL1Eval && candidate.language == CodeLanguage::Python && m_environment &&
      runs::cudaL1EvalByDefault(run->run().format, candidate.id,
                                m_choices.device.empty() ? m_environment->device : m_choices.device))
    choices.cudaL1Eval = protocol::Options::CudaL1EvalOptions{};
  auto request = runs::evaluationRequest(run->task(row), candidate, runs::evaluateOptions(choices));
  if (auto* why = std::get_if<std::string>(&request)) return QString::fromStdString(*why);
  return std::get<protocol::Request>(std::move(request));
}

QString RunController::whyNotRunnable(const std::shared_ptr<const LoadedRun>& run, int row,
                                      const QString& program) const {
  auto request = requestFor(run, row, program);
  if (auto* why = std::get_if<QString>(&request)) return *why;
  return {};
}

bool RunController::compilesInsteadOfRunning(const QString& program) const {
  // Device cpu asks for the run anyway (it times the PyTorch fallback); the rule is kscope run's too.
  return m_environment && runs::compilesInsteadOfRunning(m_environment->device, program.toStdString(),
                                                         !m_choices.device.empty());
}

QString RunController::enqueue(const std::shared_ptr<const LoadedRun>& run, const QString& sourceFile,
                               int row, const QString& program) {
  if (!m_runnerProblem.isEmpty()) return m_runnerProblem;
  if (!m_gpuProblem.isEmpty()) return m_gpuProblem;
  auto request = requestFor(run, row, program);
  if (auto* why = std::get_if<QString>(&request)) return *why;
  const Candidate* recorded = run->candidate(row);
  RunJob job;
  job.id = m_nextId++;
  job.row = row;
  job.run = run;
  job.subject = {.sourceFile = sourceFile.toStdString(),
                 .taskKey = run->task(row).key(),
                 .candidateId = recorded->id,
                 .code = program.toStdString()};
  job.edited = ProgramText(program.toStdString()) != recorded->code;
  job.request = std::get<protocol::Request>(std::move(request));
  job.limits = m_limits;
  m_queue.push_back(std::move(job));
  ++m_total;
  const bool wasBusy = busyLanes() > 0;
  startNext();
  if (wasBusy) emitProgress();  // the total grew
  return {};
}

int RunController::enqueueRecorded(const std::shared_ptr<const LoadedRun>& run, const QString& sourceFile,
                                   const QList<int>& rows) {
  int queued = 0;
  for (int row : rows) {
    const Candidate* c = run && row >= 0 && row < run->rowCount() ? run->candidate(row) : nullptr;
    if (c && c->code && enqueue(run, sourceFile, row, QString::fromStdString(*c->code)).isEmpty()) ++queued;
  }
  return queued;
}

void RunController::probe() {
  if (!m_runnerProblem.isEmpty()) {
    emit runnerUnavailable(m_runnerProblem);
    return;
  }
  m_environmentAsked = true;
  ensureLanes();
  onWorker(*m_lanes.front(), [this, worker = m_lanes.front()->worker.get()] {
    auto answer = worker->hello();
    const bool up = std::holds_alternative<protocol::Environment>(answer);
    QMetaObject::invokeMethod(this, [this, answer = std::move(answer)] {
      if (const auto* environment = std::get_if<protocol::Environment>(&answer))
        emit environmentChanged(*environment);
      else
        emit runnerUnavailable(QString::fromStdString(std::get<std::string>(answer)));
    });
    // While the user reads: a Run queued meanwhile waits for this on the worker thread, no longer than the
    // first run would have taken anyway.
    if (up) worker->warmUp();
  });
}

void RunController::startNext() {
  if (busyLanes() == 0) {
    if (m_queue.empty()) {
      const int ran = m_done - m_cancelled;
      const int cancelled = m_cancelled;
      m_done = m_total = m_cancelled = m_jobsTimed = 0;
      m_jobSeconds = 0;
      m_tick.stop();
      emit idle(ran, cancelled);
      return;
    }
    ensureLanes();  // the GPUs chosen now: runners change between queues, never under a job
  }
  if (!m_environmentAsked) probe();  // queued before the job: the environment shows while it runs
  for (auto& lane : m_lanes)
    if (!lane->inFlight && !m_queue.empty()) startOn(*lane);
}

void RunController::startOn(Lane& lane) {
  lane.inFlight = std::make_unique<RunJob>(std::move(m_queue.front()));
  m_queue.pop_front();
  lane.inFlight->subject.gpu = lane.gpu;  // the store row says which GPU measured it
  lane.phaseName.clear();
  lane.buildNote.clear();
  lane.buildReported = lane.buildFailed = false;
  lane.phaseDone = lane.phaseTotal = lane.phaseDoneAtStart = 0;
  lane.phaseClock.start();
  lane.jobClock.start();
  lane.phase = tr("starting");
  m_tick.start();
  emitProgress();
  Lane* at = &lane;
  onWorker(lane, [this, at, worker = lane.worker.get(), job = *lane.inFlight] {
    const int id = job.id;
    RunWorker::Finished finished = worker->evaluate(job, [this, at, id](const protocol::Event& event) {
      if (const auto* p = std::get_if<protocol::PhaseEvent>(&event))
        QMetaObject::invokeMethod(this, [this, at, id, phase = QString::fromUtf8(protocol::phaseName(p->phase))] {
          onEvent(at, id, phase, 0, 0);
        });
      else if (const auto* g = std::get_if<protocol::ProgressEvent>(&event))
        QMetaObject::invokeMethod(
            this, [this, at, id, phase = QString::fromUtf8(protocol::phaseName(g->phase)), done = g->done,
                   total = g->total] { onEvent(at, id, phase, done, total); });
      else if (const auto* b = std::get_if<protocol::BuildEvent>(&event))
        QMetaObject::invokeMethod(this, [this, at, id, build = *b] { onBuild(at, id, build); });
    });
    QMetaObject::invokeMethod(this, [this, at, job, run = std::move(finished.run),
                                     error = QString::fromStdString(finished.storeError)] {
      onFinished(at, job, run, error);
    });
  });
}

void RunController::onEvent(Lane* lane, int jobId, const QString& phase, int done, int total) {
  if (!ours(lane) || !lane->inFlight || lane->inFlight->id != jobId) return;
  if (total <= 0) {  // a phase begins, or comes back after a build that interrupted it
    if (lane->phaseName == QStringLiteral("build") && phase != lane->phaseName && !lane->buildReported)
      lane->buildNote = tr("a build took %1").arg(roughDuration(lane->phaseClock.elapsed() / 1000.0));
    if (phase != lane->phaseName || lane->phaseTotal <= 0) lane->phaseDone = lane->phaseTotal = 0;
    lane->phaseName = phase;
    lane->phaseDoneAtStart = lane->phaseDone;
    lane->phaseClock.start();
  } else {
    lane->phaseDone = done;
    lane->phaseTotal = total;
  }
  lane->phase = phaseText(*lane);
  emitProgress();
}

// A build the program started has finished: say whether the kernel compiled or the program goes on without
// it (its fallback is then what runs), as it happens; a failed candidate build stays in view for the job.
void RunController::onBuild(Lane* lane, int jobId, const protocol::BuildEvent& build) {
  if (!ours(lane) || !lane->inFlight || lane->inFlight->id != jobId) return;
  if (lane->buildReported && lane->buildFailed && build.ok) return;  // a later success does not hide a failure
  lane->buildReported = true;
  lane->buildFailed = !build.ok && build.program != "reference";
  lane->buildNote = QString::fromStdString(runs::buildEventNote(build));
  lane->phase = phaseText(*lane);
  emitProgress();
}

QString RunController::phaseText(const Lane& lane) const {
  QString text = lane.phaseName;
  if (lane.phaseTotal > 0)
    text += QStringLiteral(" ") + phaseEstimate(lane.phaseClock.elapsed() / 1000.0, lane.phaseDoneAtStart,
                                                lane.phaseDone, lane.phaseTotal);
  else if (lane.phaseClock.isValid() && lane.phaseClock.elapsed() >= 5000)
    text += tr(" · %1 so far").arg(roughDuration(lane.phaseClock.elapsed() / 1000.0));
  if (!lane.buildNote.isEmpty() && lane.phaseName != QStringLiteral("build"))
    text += QStringLiteral(" · ") + lane.buildNote;
  return text;
}

QString RunController::queueLeft() const {
  if (m_queue.empty() || m_jobsTimed == 0) return {};
  std::vector<double> inFlight;
  for (const auto& lane : m_lanes)
    if (lane->inFlight) inFlight.push_back(lane->jobClock.elapsed() / 1000.0);
  const double left = queueSecondsLeft(m_jobSeconds / m_jobsTimed, inFlight, static_cast<int>(m_queue.size()),
                                       static_cast<int>(m_lanes.size()));
  return left < 0 ? QString() : tr("queue: about %1 left").arg(roughDuration(left));
}

void RunController::emitProgress() {
  const int busy = busyLanes();
  if (busy == 0) return;
  QString text;
  if (m_lanes.size() == 1) {
    const Lane& lane = *m_lanes.front();
    text = QStringLiteral("%1/%2 · %3 · %4").arg(m_done + 1).arg(m_total).arg(lane.inFlight->label(), lane.phase);
  } else {
    text = tr("%1/%2 done · %3 of %4 GPUs busy").arg(m_done).arg(m_total).arg(busy).arg(m_lanes.size());
  }
  if (const QString left = queueLeft(); !left.isEmpty()) text += QStringLiteral(" · ") + left;
  emit progressChanged(m_done, m_total, text);
}

void RunController::onFinished(Lane* lane, const RunJob& job, const runs::MeasuredRun& run,
                               const QString& storeError) {
  if (!ours(lane)) return;
  const double seconds = lane->jobClock.elapsed() / 1000.0;
  lane->inFlight.reset();
  ++m_done;
  if (run.error && run.error->kind == protocol::ErrorKind::Cancelled) {
    ++m_cancelled;
  } else {
    ++m_jobsTimed;
    m_jobSeconds += seconds;
  }
  emit finished(job, run, storeError);
  startNext();
}

void RunController::cancel() {
  if (!isBusy()) return;
  m_cancelled += static_cast<int>(m_queue.size());
  m_done += static_cast<int>(m_queue.size());
  m_queue.clear();
  for (auto& lane : m_lanes)
    if (lane->inFlight) lane->worker->cancelThrough(lane->inFlight->id);
}

}  // namespace ks
