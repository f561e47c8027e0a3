#include "views/item_models/candidate_filter_proxy.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <string_view>
#include <tuple>
#include <utility>

#include "views/logic/loaded_run.h"
#include "views/logic/radix_sort.h"
#include "views/item_models/candidate_table_model.h"

namespace ks {
namespace {

using radix::doubleKey;
using radix::intKey;

// The first seven bytes of a string, big-endian, then its length (up to 255): for strings of at most seven
// bytes the key's order is string order exactly; longer ones that share their first seven bytes tie.
constexpr std::size_t kPrefixBytes = 7;
std::uint64_t prefixKey(std::string_view s) {
  std::uint64_t key = 0;
  for (std::size_t i = 0; i < kPrefixBytes; ++i)
    key = (key << 8) | (i < s.size() ? static_cast<unsigned char>(s[i]) : 0u);
  return (key << 8) | std::min<std::size_t>(s.size(), 255);
}

// Sorts `rows` by key[row], stably.
void radixSort(std::vector<int>& rows, const std::vector<std::uint64_t>& key) {
  radix::sortBy(rows, [&](int row) { return key[static_cast<std::size_t>(row)]; });
}

bool containsLower(std::string_view text, std::string_view lowerWord) {
  if (lowerWord.size() > text.size()) return false;
  for (std::size_t i = 0; i + lowerWord.size() <= text.size(); ++i) {
    std::size_t j = 0;
    while (j < lowerWord.size() &&
           static_cast<char>(std::tolower(static_cast<unsigned char>(text[i + j]))) == lowerWord[j])
      ++j;
    if (j == lowerWord.size()) return true;
  }
  return false;
}

}  // namespace

CandidateFilterProxy::CandidateFilterProxy(CandidateTableModel* source, QObject* parent)
    : QAbstractProxyModel(parent), m_source(source) {
  QAbstractProxyModel::setSourceModel(source);
  connect(source, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); });
  connect(source, &QAbstractItemModel::modelReset, this, &CandidateFilterProxy::sourceReset);
  connect(source, &QAbstractItemModel::layoutChanged, this, &CandidateFilterProxy::sourceLayoutChanged);
  connect(source, &QAbstractItemModel::dataChanged, this, &CandidateFilterProxy::sourceDataChanged);
  connect(source, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged);
  beginResetModel();
  sourceReset();
}

void CandidateFilterProxy::sourceReset() {
  m_ascending.clear();
  if (m_sortColumn >= columnCount()) m_sortColumn = -1;
  rebuild(/*reset=*/true);
  endResetModel();
}

void CandidateFilterProxy::sourceLayoutChanged() {
  // Flags (and with them the trust and the flag values) changed; rows stay where they are in the source.
  m_ascending.erase(m_source->flagsColumn());
  m_ascending.erase(m_source->measuredColumn());
  rebuild();
}

void CandidateFilterProxy::sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight) {
  // Measured values changed (a re-run): its column's order is stale; a sort by it is redone.
  m_ascending.erase(m_source->measuredColumn());
  if (m_sortColumn == m_source->measuredColumn()) rebuild();
  if (rowCount() > 0)
    emit dataChanged(index(0, topLeft.column()), index(rowCount() - 1, bottomRight.column()));
}

void CandidateFilterProxy::setLevel(int level) {
  if (level == m_level) return;
  m_level = level;
  rebuild();
}

void CandidateFilterProxy::setSpeedupRange(int baseline, double min, double max) {
  if (baseline == m_baseline && min == m_min && max == m_max) return;
  m_baseline = baseline;
  m_min = min;
  m_max = max;
  rebuild();
}

void CandidateFilterProxy::setFlagFilter(FlagFilter filter, int family) {
  if (filter == m_flagFilter && family == m_family) return;
  m_flagFilter = filter;
  m_family = family;
  rebuild();
}

void CandidateFilterProxy::setText(const QString& text) {
  std::vector<std::string> words;
  for (const QString& word : text.toLower().split(' ', Qt::SkipEmptyParts))
    words.push_back(word.toStdString());
  if (words == m_words) return;
  m_words = std::move(words);
  rebuild();
}

void CandidateFilterProxy::clearFilters() {
  m_level = 0;
  m_min = m_max = 0;
  m_flagFilter = FlagFilter::Any;
  m_family = -1;
  m_words.clear();
  rebuild();
}

void CandidateFilterProxy::sort(int column, Qt::SortOrder order) {
  if (column < 0 || column >= columnCount()) column = -1;
  if (column == m_sortColumn && order == m_sortOrder) return;
  m_sortColumn = column;
  m_sortOrder = order;
  rebuild();
}

int CandidateFilterProxy::sourceRow(int proxyRow) const {
  return proxyRow >= 0 && proxyRow < rowCount() ? m_shown[static_cast<std::size_t>(proxyRow)] : -1;
}

int CandidateFilterProxy::proxyRow(int sourceRow) const {
  return sourceRow >= 0 && static_cast<std::size_t>(sourceRow) < m_proxyOf.size()
             ? m_proxyOf[static_cast<std::size_t>(sourceRow)]
             : -1;
}

QModelIndex CandidateFilterProxy::mapToSource(const QModelIndex& proxyIndex) const {
  if (!proxyIndex.isValid() || proxyIndex.model() != this) return {};
  return m_source->index(sourceRow(proxyIndex.row()), proxyIndex.column());
}

QModelIndex CandidateFilterProxy::mapFromSource(const QModelIndex& sourceIndex) const {
  if (!sourceIndex.isValid()) return {};
  const int row = proxyRow(sourceIndex.row());
  return row < 0 ? QModelIndex() : createIndex(row, sourceIndex.column());
}

QModelIndex CandidateFilterProxy::index(int row, int column, const QModelIndex& parent) const {
  if (parent.isValid() || row < 0 || row >= rowCount() || column < 0 || column >= columnCount()) return {};
  return createIndex(row, column);
}

QModelIndex CandidateFilterProxy::parent(const QModelIndex&) const { return {}; }

int CandidateFilterProxy::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_shown.size());
}

int CandidateFilterProxy::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : m_source->columnCount();
}

bool CandidateFilterProxy::accepts(int sourceRow) const {
  const CandidateTableModel::RowValues& v = m_source->values(sourceRow);
  if (m_level != 0 && v.level != m_level) return false;
  if ((m_min > 0 || m_max > 0) && m_baseline < m_source->seriesCount()) {
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
  return true;
}

std::vector<int> CandidateFilterProxy::byTask() const {
  // Task key order (level, number), each task's rows in candidate order: rows of one task are contiguous in
  // the LoadedRun, so only the tasks are sorted.
  const int rows = m_source->rowCount();
  std::vector<int> firstRow, taskOfFirst;
  for (int r = 0; r < rows; ++r)
    if (r == 0 || m_source->values(r).task != m_source->values(r - 1).task) firstRow.push_back(r);
  std::vector<std::size_t> order(firstRow.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto& x = m_source->values(firstRow[a]);
    const auto& y = m_source->values(firstRow[b]);
    return std::tie(x.level, x.number) < std::tie(y.level, y.number);
  });
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(rows));
  for (std::size_t t : order) {
    const int end = t + 1 < firstRow.size() ? firstRow[t + 1] : rows;
    for (int r = firstRow[t]; r < end; ++r) out.push_back(r);
  }
  return out;
}

const std::vector<int>& CandidateFilterProxy::ascending(int column) {
  if (auto it = m_ascending.find(column); it != m_ascending.end()) return it->second;
  if (column < 0) {  // source order
    std::vector<int> order(static_cast<std::size_t>(m_source->rowCount()));
    std::iota(order.begin(), order.end(), 0);
    return m_ascending.emplace(column, std::move(order)).first->second;
  }
  std::vector<int> order = column == CandidateTableModel::TaskColumn ? byTask() : ascending(0);
  if (column != CandidateTableModel::TaskColumn) {
    const auto rows = static_cast<std::size_t>(m_source->rowCount());
    std::vector<std::uint64_t> key(rows);
    const LoadedRun* run = m_source->run().get();
    if (column == CandidateTableModel::NameColumn) {
      // Tasks ranked by name; rows by their task's rank.
      std::vector<int> tasks(run ? run->run().tasks.size() : 0);
      std::iota(tasks.begin(), tasks.end(), 0);
      std::stable_sort(tasks.begin(), tasks.end(), [&](int a, int b) {
        return run->run().tasks[static_cast<std::size_t>(a)].name <
               run->run().tasks[static_cast<std::size_t>(b)].name;
      });
      std::vector<std::uint64_t> rank(tasks.size());
      for (std::size_t i = 0; i < tasks.size(); ++i) rank[static_cast<std::size_t>(tasks[i])] = i;
      for (std::size_t r = 0; r < rows; ++r)
        key[r] = rank[static_cast<std::size_t>(m_source->values(static_cast<int>(r)).task)];
    }
    for (std::size_t r = 0; r < rows && column != CandidateTableModel::NameColumn; ++r) {
      const int row = static_cast<int>(r);
      const auto& v = m_source->values(row);
      if (column == CandidateTableModel::LevelColumn) {
        key[r] = intKey(v.level);
      } else if (column == CandidateTableModel::CandidateColumn) {
        const Candidate* c = run->candidate(row);
        key[r] = c ? prefixKey(c->id) : 0;
      } else if (column == CandidateTableModel::StepColumn) {
        key[r] = intKey(v.step);
      } else if (column < m_source->measuredColumn()) {
        key[r] = doubleKey(m_source->speedup(row, column - CandidateTableModel::FirstSpeedupColumn));
      } else if (column == m_source->measuredColumn()) {
        key[r] = doubleKey(m_source->measuredSpeedup(row));
      } else if (column == m_source->flagsColumn()) {
        key[r] =
            (static_cast<std::uint64_t>(v.worstSeverity) << 32) | static_cast<std::uint32_t>(v.flagCount);
      } else {
        key[r] = v.hasCode ? 1 : 0;
      }
    }
    radixSort(order, key);
    if (column == CandidateTableModel::CandidateColumn) {
      // Ids longer than the key that share its bytes: ordered by the whole id (stable: task order among
      // equals). Runs of ids the key orders exactly (the same short id in many tasks) are left as they are.
      const auto id = [&](int row) -> std::string_view {
        const Candidate* c = run->candidate(row);
        return c ? std::string_view(c->id) : std::string_view();
      };
      for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i + 1;
        while (j < order.size() &&
               key[static_cast<std::size_t>(order[j])] == key[static_cast<std::size_t>(order[i])])
          ++j;
        if (j - i > 1 && id(order[i]).size() > kPrefixBytes)  // equal keys: all longer, or all the same id
          std::stable_sort(order.begin() + static_cast<std::ptrdiff_t>(i),
                           order.begin() + static_cast<std::ptrdiff_t>(j),
                           [&](int a, int b) { return id(a) < id(b); });
        i = j;
      }
    }
  }
  return m_ascending.emplace(column, std::move(order)).first->second;
}

void CandidateFilterProxy::rebuild(bool reset) {
  QModelIndexList persistent;
  std::vector<int> persistentSource;
  if (!reset) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    persistent = persistentIndexList();
    for (const QModelIndex& i : persistent) persistentSource.push_back(sourceRow(i.row()));
  }
  const int rows = m_source->rowCount();
  m_shown.clear();
  m_proxyOf.assign(static_cast<std::size_t>(rows), -1);
  if (rows > 0) {
    const std::vector<int>& order = ascending(m_sortColumn);
    // The text filter: per task and per flag family whether each word occurs, then per row its id.
    const LoadedRun* run = m_source->run().get();
    const std::size_t tasks = run ? run->run().tasks.size() : 0;
    std::vector<std::vector<char>> taskHit(m_words.size(), std::vector<char>(tasks, 0));
    std::vector<std::vector<char>> familyHit(m_words.size());
    for (std::size_t w = 0; w < m_words.size(); ++w) {
      for (std::size_t t = 0; t < tasks; ++t)
        taskHit[w][t] = containsLower(m_source->taskText(static_cast<int>(t)), m_words[w]);
      for (const std::string& family : m_source->familyIds())
        familyHit[w].push_back(containsLower(family, m_words[w]));
    }
    const auto textAccepts = [&](int row) {
      const auto& v = m_source->values(row);
      const Candidate* c = run->candidate(row);
      for (std::size_t w = 0; w < m_words.size(); ++w) {
        if (taskHit[w][static_cast<std::size_t>(v.task)]) continue;
        if (c && containsLower(c->id, m_words[w])) continue;
        if (std::any_of(v.families.begin(), v.families.end(),
                        [&](std::uint16_t f) { return f < familyHit[w].size() && familyHit[w][f]; }))
          continue;
        return false;
      }
      return true;
    };
    // Which rows pass, in row order (the values are read in the order they lie), then the shown rows in the
    // sorted order.
    std::vector<char> passes(static_cast<std::size_t>(rows));
    for (int row = 0; row < rows; ++row)
      passes[static_cast<std::size_t>(row)] = accepts(row) && (m_words.empty() || textAccepts(row));
    m_shown.reserve(order.size());
    const auto keep = [&](int row) {
      if (!passes[static_cast<std::size_t>(row)]) return;
      m_proxyOf[static_cast<std::size_t>(row)] = static_cast<int>(m_shown.size());
      m_shown.push_back(row);
    };
    if (m_sortOrder == Qt::AscendingOrder)
      for (int row : order) keep(row);
    else
      for (auto it = order.rbegin(); it != order.rend(); ++it) keep(*it);
    m_shown.shrink_to_fit();
  }
  if (!reset) {
    QModelIndexList moved;
    for (std::size_t i = 0; i < static_cast<std::size_t>(persistent.size()); ++i) {
      const int row = proxyRow(persistentSource[i]);
      moved << (row < 0 ? QModelIndex() : createIndex(row, persistent[static_cast<qsizetype>(i)].column()));
    }
    changePersistentIndexList(persistent, moved);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
  }
}

}  // namespace ks
