#include "app/kernelscope/run_loader.h"

#include <QFutureWatcher>
#include <QStringList>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <atomic>
#include <exception>
#include <optional>

#include "core/formats/load.h"
#include "views/logic/loaded_run.h"
#include "views/logic/stage_timer.h"

namespace ks {
namespace {

struct LoadResult {
  std::shared_ptr<LoadedRun> run;
  QString error;
  bool canceled = false;
};

using CheckResult = std::optional<LoadedRun::FlagCheck>;

QString describeFailure(const RunFile& file) {
  if (file.issues.empty()) return QObject::tr("No task found in it.");
  QStringList lines;
  const std::size_t shown = std::min<std::size_t>(file.issues.size(), 5);
  for (std::size_t i = 0; i < shown; ++i) lines << QString::fromStdString(file.issues[i].toString());
  if (file.issues.size() > shown)
    lines << QObject::tr("… and %1 more problems.").arg(file.issues.size() - shown);
  return lines.join('\n');
}

}  // namespace

struct RunLoader::Job {
  QString path;
  std::atomic<bool> cancel{false};
  std::atomic<int> permille{0};
  bool checking = false;
  std::shared_ptr<const LoadedRun> run;
  QFutureWatcher<LoadResult> load;
  QFutureWatcher<CheckResult> checks;
};

RunLoader::RunLoader(QObject* parent) : QObject(parent) {
  m_control.setMaxThreadCount(1);
  m_workers.setMaxThreadCount(std::max(1, QThread::idealThreadCount()));
  m_poll.setInterval(50);
  connect(&m_poll, &QTimer::timeout, this, [this] {
    if (m_job)
      emit progressChanged(m_job->permille.load(), m_job->checking ? tr("Checking flags") : tr("Reading"));
  });
}

RunLoader::~RunLoader() { stop(); }

void RunLoader::stop() {
  if (!m_job) return;
  // The superseded job finishes in the pool; its results are dropped. Its watchers are waited for here so
  // they never outlive the job they watch.
  const std::shared_ptr<Job> job = std::move(m_job);
  job->cancel = true;
  job->load.disconnect(this);
  job->checks.disconnect(this);
  job->load.waitForFinished();
  job->checks.waitForFinished();
  m_poll.stop();
}

void RunLoader::open(const QString& path) {
  stop();
  auto job = std::make_shared<Job>();
  job->path = path;
  m_job = job;
  connect(&job->load, &QFutureWatcherBase::finished, this, [this, job] { finishLoad(job); });
  emit started(path);
  job->load.setFuture(QtConcurrent::run(&m_control, [job]() -> LoadResult {
    try {
      LoadOptions options;
      options.progress = [job](double f) { job->permille = static_cast<int>(f * 1000); };
      options.cancel = &job->cancel;
      RunFile file;
      {
        const StageTimer timer("read: the file (loadAny)");
        file = loadAny(job->path.toStdString(), options);
      }
      if (job->cancel) return {{}, {}, true};
      if (file.tasks.empty()) return {{}, describeFailure(file), false};
      const StageTimer timer("read: rows (LoadedRun)");
      return {std::make_shared<LoadedRun>(std::move(file)), {}, false};
    } catch (const std::exception& e) {
      return {{}, QString::fromUtf8(e.what()), false};
    }
  }));
  m_poll.start();
  QTimer::singleShot(kShowProgressAfterMs, this, [this, job] {
    if (m_job == job) emit slow(job->path);
  });
}

void RunLoader::cancel() {
  if (m_job) m_job->cancel = true;
}

// A finished job's watchers hold lambdas that hold the job (and through it the futures' results: a run, a
// million candidates' flags): they are disconnected once the signal that got us here has returned, so that
// the job goes.
void RunLoader::release(const std::shared_ptr<Job>& job) {
  QMetaObject::invokeMethod(
      this,
      [job] {
        job->load.disconnect();
        job->checks.disconnect();
      },
      Qt::QueuedConnection);
}

void RunLoader::finishLoad(const std::shared_ptr<Job>& job) {
  if (m_job != job) return;
  const LoadResult result = job->load.result();
  if (result.canceled || !result.run) {
    release(job);
    m_job.reset();
    m_poll.stop();
    if (result.canceled)
      emit canceled(job->path);
    else
      emit failed(job->path, result.error);
    return;
  }
  job->run = result.run;
  emit loaded(job->path, job->run);
  if (m_job == job) startChecks(job);
}

void RunLoader::startChecks(const std::shared_ptr<Job>& job) {
  job->checking = true;
  job->permille = 0;
  connect(&job->checks, &QFutureWatcherBase::finished, this, [this, job] { finishChecks(job); });
  const std::shared_ptr<const LoadedRun> run = job->run;
  job->checks.setFuture(QtConcurrent::run(&m_control, [this, job, run]() -> CheckResult {
    const StageTimer timer("after paint: static checks of every candidate");
    return run->checkFlags(
        &m_workers, [job](double f) { job->permille = static_cast<int>(f * 1000); }, &job->cancel);
  }));
}

void RunLoader::finishChecks(const std::shared_ptr<Job>& job) {
  if (m_job != job) return;
  release(job);
  m_job.reset();
  m_poll.stop();
  // Taken, not copied: result() copies, and the future would have kept its copy of every flag.
  CheckResult result = job->checks.future().takeResult();
  if (!result) {
    emit canceled(job->path);
    return;
  }
  emit flagsChecked(
      job->run->withFlags(std::move(*result)));  // a new snapshot: the shared one stays as it is
}

}  // namespace ks
