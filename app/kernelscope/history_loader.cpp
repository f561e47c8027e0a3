#include "app/kernelscope/history_loader.h"

#include <QtConcurrent/QtConcurrentRun>

#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/read_history.h"

namespace ks {

HistoryLoader::HistoryLoader(std::filesystem::path storePath, QObject* parent)
    : QObject(parent), m_storePath(std::move(storePath)) {
  m_pool.setMaxThreadCount(1);
}

HistoryLoader::~HistoryLoader() { stop(); }

void HistoryLoader::stop() {
  if (!m_watcher) return;
  *m_cancel = true;
  m_watcher->disconnect(this);
  m_watcher->waitForFinished();
  m_watcher.reset();
}

void HistoryLoader::load(const QString& sourceFile, std::shared_ptr<const LoadedRun> run) {
  stop();
  if (!run) return;
  m_cancel = std::make_shared<std::atomic<bool>>(false);
  m_watcher = std::make_unique<QFutureWatcher<Result>>();
  QFutureWatcher<Result>* watcher = m_watcher.get();
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, run] {
    const Result result = watcher->result();
    emit loaded(run, result.history, result.error);
  });
  watcher->setFuture(QtConcurrent::run(
      &m_pool, [path = m_storePath, file = sourceFile.toStdString(), run, cancel = m_cancel]() -> Result {
        HistoryRead read = readHistory(path, file, *run, cancel.get());
        return {std::move(read.history), QString::fromStdString(read.error)};
      }));
}

}  // namespace ks
