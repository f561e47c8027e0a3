#include "views/models/candidate_filter_proxy.h"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "views/models/candidate_table_model.h"

namespace ks {

CandidateFilterProxy::CandidateFilterProxy(CandidateTableModel* source, QObject* parent)
    : QSortFilterProxyModel(parent), m_source(source) {
  setSourceModel(source);
}

void CandidateFilterProxy::setLevel(int level) {
  if (level == m_level) return;
  m_level = level;
  invalidate();
}

void CandidateFilterProxy::setSpeedupRange(int baseline, double min, double max) {
  if (baseline == m_baseline && min == m_min && max == m_max) return;
  m_baseline = baseline;
  m_min = min;
  m_max = max;
  invalidate();
}

void CandidateFilterProxy::setFlagFilter(FlagFilter filter, int family) {
  if (filter == m_flagFilter && family == m_family) return;
  m_flagFilter = filter;
  m_family = family;
  invalidate();
}

void CandidateFilterProxy::setText(const QString& text) {
  std::vector<std::string> words;
  for (const QString& word : text.toLower().split(' ', Qt::SkipEmptyParts))
    words.push_back(word.toStdString());
  if (words == m_words) return;
  m_words = std::move(words);
  invalidate();
}

void CandidateFilterProxy::clearFilters() {
  m_level = 0;
  m_min = m_max = 0;
  m_flagFilter = FlagFilter::Any;
  m_family = -1;
  m_words.clear();
  invalidate();
}

int CandidateFilterProxy::sourceRow(int proxyRow) const { return mapToSource(index(proxyRow, 0)).row(); }

int CandidateFilterProxy::proxyRow(int sourceRow) const {
  return mapFromSource(m_source->index(sourceRow, 0)).row();
}

bool CandidateFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
  const CandidateTableModel::RowValues& v = m_source->values(sourceRow);
  if (m_level != 0 && v.level != m_level) return false;
  if ((m_min > 0 || m_max > 0) && m_baseline < m_source->baselineCount()) {
    const double s = m_source->speedup(sourceRow, m_baseline);
    if (std::isnan(s) || (m_min > 0 && s < m_min) || (m_max > 0 && s > m_max)) return false;
  }
  switch (m_flagFilter) {
    case FlagFilter::Any:
      break;
    case FlagFilter::Flagged:
      if (v.worstSeverity < 2) return false;
      break;
    case FlagFilter::Unflagged:
      if (v.worstSeverity >= 2) return false;
      break;
    case FlagFilter::Family:
      if (std::find(v.families.begin(), v.families.end(), m_family) == v.families.end()) return false;
      break;
  }
  for (const std::string& word : m_words)
    if (v.search.find(word) == std::string::npos) return false;
  return true;
}

bool CandidateFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  const int l = left.row();
  const int r = right.row();
  const auto& a = m_source->values(l);
  const auto& b = m_source->values(r);
  const auto byTask = [&] {
    return std::tie(a.level, a.number, a.candidateIndex) < std::tie(b.level, b.number, b.candidateIndex);
  };
  const int column = left.column();
  switch (column) {
    case CandidateTableModel::TaskColumn:
      return byTask();
    case CandidateTableModel::LevelColumn:
      return a.level != b.level ? a.level < b.level : byTask();
    case CandidateTableModel::NameColumn: {
      const int c = m_source->run()->task(l).name.compare(m_source->run()->task(r).name);
      return c != 0 ? c < 0 : byTask();
    }
    case CandidateTableModel::CandidateColumn: {
      const auto* ca = m_source->run()->candidate(l);
      const auto* cb = m_source->run()->candidate(r);
      const int c = (ca ? ca->id : std::string()).compare(cb ? cb->id : std::string());
      return c != 0 ? c < 0 : byTask();
    }
    case CandidateTableModel::StepColumn:
      return a.step != b.step ? a.step < b.step : byTask();
    default:
      break;
  }
  if (column <= m_source->measuredColumn()) {
    // Rows without a speedup sort below every recorded (or measured) one.
    const int baseline = column - CandidateTableModel::FirstSpeedupColumn;
    const bool measured = column == m_source->measuredColumn();
    const double sa = measured ? m_source->measuredSpeedup(l) : m_source->speedup(l, baseline);
    const double sb = measured ? m_source->measuredSpeedup(r) : m_source->speedup(r, baseline);
    if (std::isnan(sa) != std::isnan(sb)) return std::isnan(sa);
    return sa != sb && !std::isnan(sa) ? sa < sb : byTask();
  }
  if (column == m_source->flagsColumn())
    return std::tie(a.worstSeverity, a.flagCount) != std::tie(b.worstSeverity, b.flagCount)
               ? std::tie(a.worstSeverity, a.flagCount) < std::tie(b.worstSeverity, b.flagCount)
               : byTask();
  return a.hasCode != b.hasCode ? b.hasCode : byTask();
}

}  // namespace ks
