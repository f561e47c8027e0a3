#include "app/kernelscope/run_controller.h"

#include <QMetaObject>

#include "app/kernelscope/run_worker.h"
#include "core/pysource/embedded_sources.h"
#include "core/supervisor/evaluation_request.h"
#include "core/runs/fallback_note.h"
#include "core/supervisor/runner_location.h"
#include "views/model/loaded_run.h"
#include "views/model/phase_estimate.h"

namespace ks {

RunController::RunController(const std::filesystem::path& runner, const std::filesystem::path& storePath,
                             QObject* parent)
    : QObject(parent), m_context(new QObject) {
  const supervisor::RunnerLocation location = supervisor::findRunner(runner);
  if (!location.found()) m_runnerProblem = QString::fromStdString(location.error);
  m_worker = std::make_unique<RunWorker>(location.path, storePath);
  m_thread.setObjectName(QStringLiteral("kscope-runner supervisor"));
  m_context->moveToThread(&m_thread);
  m_thread.start();
  m_tick.setInterval(5000);
  connect(&m_tick, &QTimer::timeout, this, [this] { emitProgress({}); });
  connect(this, &RunController::environmentChanged, this,
          [this](const protocol::Environment& environment) { m_environment = environment; });
}

RunController::~RunController() {
  m_queue.clear();
  m_worker->cancelThrough(m_nextId);  // whatever is in flight, a hello included
  QMetaObject::invokeMethod(
      m_context, [worker = m_worker.get()] { worker->stopRunner(); }, Qt::BlockingQueuedConnection);
  m_thread.quit();
  m_thread.wait();
  delete m_context;
}

template <class Work>
void RunController::onWorker(Work&& work) {
  QMetaObject::invokeMethod(m_context, std::forward<Work>(work), Qt::QueuedConnection);
}

void RunController::setChoices(const runs::RunChoices& choices, const RunLimits& limits) {
  m_choices = choices;
  m_limits = limits;
}

QString RunController::whyNotRunnable(const std::shared_ptr<const LoadedRun>& run, int row,
                                      const QString& program) const {
  const Candidate* recorded = run && row >= 0 && row < run->rowCount() ? run->candidate(row) : nullptr;
  if (!recorded) return tr("Select a candidate to run.");
  Candidate candidate = *recorded;
  candidate.code = program.toStdString();
  auto request = supervisor::evaluationRequest(run->task(row), candidate, runs::evaluateOptions(m_choices));
  if (auto* why = std::get_if<std::string>(&request)) return QString::fromStdString(*why);
  return {};
}

bool RunController::compilesInsteadOfRunning(const QString& program) const {
  if (!m_environment || m_environment->device == "cuda" || !m_choices.device.empty()) return false;
  for (const EmbeddedSource& source : extractEmbeddedSources(program.toStdString()))
    if (source.language == "cuda") return true;
  return false;
}

QString RunController::enqueue(const std::shared_ptr<const LoadedRun>& run, const QString& sourceFile,
                               int row, const QString& program) {
  if (!m_runnerProblem.isEmpty()) return m_runnerProblem;
  const Candidate* recorded = run && row >= 0 && row < run->rowCount() ? run->candidate(row) : nullptr;
  if (!recorded) return tr("Select a candidate to run.");
  Candidate candidate = *recorded;
  candidate.code = program.toStdString();
  auto request = supervisor::evaluationRequest(run->task(row), candidate, runs::evaluateOptions(m_choices));
  if (auto* why = std::get_if<std::string>(&request)) return QString::fromStdString(*why);
  RunJob job;
  job.id = m_nextId++;
  job.row = row;
  job.run = run;
  job.subject = {.sourceFile = sourceFile.toStdString(),
                 .taskKey = run->task(row).key(),
                 .candidateId = candidate.id,
                 .code = *candidate.code};
  job.edited = candidate.code != recorded->code;
  job.request = std::get<protocol::Request>(std::move(request));
  job.limits = m_limits;
  m_queue.push_back(std::move(job));
  ++m_total;
  if (m_inFlight)
    emitProgress({});  // the total grew
  else
    startNext();
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
  onWorker([this, worker = m_worker.get()] {
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
  if (m_queue.empty()) {
    const int ran = m_done - m_cancelled;
    const int cancelled = m_cancelled;
    m_done = m_total = m_cancelled = 0;
    emit idle(ran, cancelled);
    return;
  }
  if (!m_environmentAsked) probe();  // queued before the job: the environment shows while it runs
  m_inFlight = std::make_unique<RunJob>(std::move(m_queue.front()));
  m_queue.pop_front();
  m_phaseName.clear();
  m_buildNote.clear();
  m_buildReported = m_buildFailed = false;
  m_phaseClock.start();
  m_tick.start();
  emitProgress(tr("starting"));
  onWorker([this, worker = m_worker.get(), job = *m_inFlight] {
    const int id = job.id;
    RunWorker::Finished finished = worker->evaluate(job, [this, id](const protocol::Event& event) {
      if (const auto* p = std::get_if<protocol::PhaseEvent>(&event))
        QMetaObject::invokeMethod(this, [this, id, phase = QString::fromUtf8(protocol::phaseName(p->phase))] {
          onEvent(id, phase, 0, 0);
        });
      else if (const auto* g = std::get_if<protocol::ProgressEvent>(&event))
        QMetaObject::invokeMethod(
            this, [this, id, phase = QString::fromUtf8(protocol::phaseName(g->phase)), done = g->done,
                   total = g->total] { onEvent(id, phase, done, total); });
      else if (const auto* b = std::get_if<protocol::BuildEvent>(&event))
        QMetaObject::invokeMethod(this, [this, id, build = *b] { onBuild(id, build); });
    });
    QMetaObject::invokeMethod(
        this, [this, job, run = std::move(finished.run),
               error = QString::fromStdString(finished.storeError)] { onFinished(job, run, error); });
  });
}

void RunController::onEvent(int jobId, const QString& phase, int done, int total) {
  if (!m_inFlight || m_inFlight->id != jobId) return;
  if (total <= 0) {  // a phase begins, or comes back after a build that interrupted it
    if (m_phaseName == QStringLiteral("build") && phase != m_phaseName && !m_buildReported)
      m_buildNote = tr("a build took %1").arg(roughDuration(m_phaseClock.elapsed() / 1000.0));
    if (phase != m_phaseName || m_phaseTotal <= 0) m_phaseDone = m_phaseTotal = 0;
    m_phaseName = phase;
    m_phaseDoneAtStart = m_phaseDone;
    m_phaseClock.start();
  } else {
    m_phaseDone = done;
    m_phaseTotal = total;
  }
  emitProgress(phaseText());
}

// A build the program started has finished: say whether the kernel compiled or the program goes on without
// it (its fallback is then what runs), as it happens; a failed candidate build stays in view for the job.
void RunController::onBuild(int jobId, const protocol::BuildEvent& build) {
  if (!m_inFlight || m_inFlight->id != jobId) return;
  if (m_buildReported && m_buildFailed && build.ok) return;  // a later success does not hide a failure
  m_buildReported = true;
  m_buildFailed = !build.ok && build.program != "reference";
  m_buildNote = QString::fromStdString(runs::buildEventNote(build));
  emitProgress(phaseText());
}

QString RunController::phaseText() const {
  QString text = m_phaseName;
  if (m_phaseTotal > 0)
    text += QStringLiteral(" ") +
            phaseEstimate(m_phaseClock.elapsed() / 1000.0, m_phaseDoneAtStart, m_phaseDone, m_phaseTotal);
  else if (m_phaseClock.isValid() && m_phaseClock.elapsed() >= 5000)
    text += tr(" · %1 so far").arg(roughDuration(m_phaseClock.elapsed() / 1000.0));
  if (!m_buildNote.isEmpty() && m_phaseName != QStringLiteral("build"))
    text += QStringLiteral(" · ") + m_buildNote;
  return text;
}

void RunController::emitProgress(const QString& phase) {
  if (!m_inFlight) return;
  if (!phase.isEmpty())
    m_phase = phase;
  else if (!m_phaseName.isEmpty())
    m_phase = phaseText();  // the tick: the same phase, its time moved on
  const QString text =
      QStringLiteral("%1/%2 · %3 · %4").arg(m_done + 1).arg(m_total).arg(m_inFlight->label(), m_phase);
  emit progressChanged(m_done, m_total, text);
}

void RunController::onFinished(const RunJob& job, const runs::MeasuredRun& run, const QString& storeError) {
  m_inFlight.reset();
  m_tick.stop();
  ++m_done;
  if (run.error && run.error->kind == protocol::ErrorKind::Cancelled) ++m_cancelled;
  emit finished(job, run, storeError);
  startNext();
}

void RunController::cancel() {
  if (!m_inFlight && m_queue.empty()) return;
  m_cancelled += static_cast<int>(m_queue.size());
  m_done += static_cast<int>(m_queue.size());
  m_queue.clear();
  if (m_inFlight) m_worker->cancelThrough(m_inFlight->id);
}

}  // namespace ks
