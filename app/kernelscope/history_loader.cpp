#include "app/kernelscope/history_loader.h"

#include <QtConcurrent/QtConcurrentRun>

#include "core/hash/sha256.h"
#include "core/runs/candidate_history.h"
#include "views/model/loaded_run.h"
#include "views/model/measured_history.h"

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
        auto history = std::make_shared<MeasuredHistory>(run->rowCount());
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) return {history, {}};
        auto opened = store::ResultStore::open(path);
        if (!opened) return {history, QString::fromStdString(opened.error)};
        for (int row = 0; row < run->rowCount() && !*cancel; ++row) {
          const Candidate* c = run->candidate(row);
          if (!c || !c->code) continue;
          const std::string hash = hash::codeHash(*c->code);
          auto runs = runs::candidateHistory(**opened.value, {file, run->task(row).key(), c->id, hash});
          if (!runs) return {history, QString::fromStdString(runs.error)};
          std::vector<MeasuredHistory::Entry> entries;
          for (runs::MeasuredRun& r : *runs.value) {
            const bool recorded = r.row.codeHash == hash;
            entries.push_back({std::move(r), recorded});
          }
          history->setEntries(row, std::move(entries));
        }
        return {history, {}};
      }));
}

}  // namespace ks
