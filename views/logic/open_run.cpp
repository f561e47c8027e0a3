#include "views/logic/open_run.h"

#include "views/logic/loaded_run.h"
#include "views/logic/stage_timer.h"

namespace ks {

OpenRun::OpenRun(QObject* parent) : QObject(parent), m_history(std::make_shared<MeasuredHistory>()) {}

bool OpenRun::isOpen(const std::shared_ptr<const LoadedRun>& run) const {
  return run && m_run && run->sameRead(*m_run);
}

void OpenRun::open(const QString& path, std::shared_ptr<const LoadedRun> run) {
  m_path = path;
  m_run = std::move(run);
  m_history = std::make_shared<MeasuredHistory>(m_run ? m_run->rowCount() : 0);
  m_current = -1;
  m_series = !m_run                                 ? SpeedupSeries{}
             : m_run->seriesIndex(m_preferred) >= 0 ? m_preferred
                                                    : m_run->series().front();
  emit opened();
  if (m_current < 0) emit currentChanged(-1);
}

bool OpenRun::setFlagged(std::shared_ptr<const LoadedRun> flagged) {
  if (!isOpen(flagged)) return false;
  m_run = std::move(flagged);
  emit flagsChanged();
  return true;
}

bool OpenRun::setHistory(const std::shared_ptr<const LoadedRun>& run,
                         std::shared_ptr<MeasuredHistory> history) {
  if (!isOpen(run) || !history) return false;
  history->merge(*m_history);  // runs that finished while it was being read
  m_history = std::move(history);
  emit historyChanged();
  return true;
}

void OpenRun::addRun(int row, MeasuredHistory::Entry entry) {
  auto added = std::make_shared<MeasuredHistory>(*m_history);
  added->add(row, std::move(entry));
  m_history = std::move(added);
  emit runAdded(row);
}

void OpenRun::setCurrentRow(int row) {
  if (!m_run || row < 0 || row >= m_run->rowCount()) row = -1;
  if (row == m_current) return;
  m_current = row;
  const StageTimer timer("view: the current row's panes (code, analysis, flags, measurements)");
  emit currentChanged(row);
}

bool OpenRun::setSeries(const SpeedupSeries& series) {
  if (m_run && m_run->seriesIndex(series) < 0) return false;
  m_preferred = series;
  if (!m_run || series == m_series) return true;
  m_series = series;
  emit seriesChanged();
  return true;
}

}  // namespace ks
