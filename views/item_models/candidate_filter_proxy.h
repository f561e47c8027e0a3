#pragma once
// Filters and sorts CandidateTableModel rows: by level, by recorded speedup range against one baseline, by
// flag family and by free text (every whitespace-separated word must occur in the task key, name,
// candidate id or flag families, case-insensitive).
//
// Index vectors rather than QSortFilterProxyModel (a million rows): each column's
// ascending order of every source row is worked out once, with a stable radix sort on a 64-bit key over the
// task order (the tie-break), and kept until the column's values change; descending is the same order read
// backwards. A filter change is then one pass over the sorted order (kept rows become the proxy rows) and
// one layout change, which moves the view's current and selected rows along. QSortFilterProxyModel sorted a
// million rows through a virtual lessThan on QModelIndexes (~20 million calls) on every sort and re-sorted
// after every filter change.
#include <QAbstractProxyModel>
#include <Qt>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ks {

class CandidateTableModel;

class CandidateFilterProxy : public QAbstractProxyModel {
  Q_OBJECT

 public:
  enum class FlagFilter { Any, Flagged, Unflagged, Family };

  explicit CandidateFilterProxy(CandidateTableModel* source, QObject* parent = nullptr);

  void setLevel(int level);  // 0: every level
  // Keeps rows whose speedup in series index `baseline` (CandidateTableModel::series) lies in [min, max]; a
  // bound <= 0 is open. With either bound set, rows without a speedup in that series are hidden.
  void setSpeedupRange(int baseline, double min, double max);
  // Flagged/Unflagged count flags that are not benign; Family keeps rows raising family index `family`.
  void setFlagFilter(FlagFilter filter, int family = -1);
  void setText(const QString& text);
  void clearFilters();

  // Proxy rows are source rows in the shown order; mapping helpers for callers that hold LoadedRun rows.
  int sourceRow(int proxyRow) const;
  int proxyRow(int sourceRow) const;  // -1 when hidden
  int sortColumn() const { return m_sortColumn; }
  Qt::SortOrder sortOrder() const { return m_sortOrder; }

  void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

  QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
  QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
  QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  QModelIndex parent(const QModelIndex& child) const override;
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;

 private:
  bool accepts(int sourceRow) const;
  // The ascending order of every source row by `column` (cached).
  const std::vector<int>& ascending(int column);
  std::vector<int> byTask() const;
  // Recomputes the shown rows from the sorted order and the filters; a layout change unless `reset`.
  void rebuild(bool reset = false);
  void sourceReset();
  void sourceLayoutChanged();
  void sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight);

  CandidateTableModel* m_source;
  int m_level = 0;
  int m_baseline = 0;
  double m_min = 0;
  double m_max = 0;
  FlagFilter m_flagFilter = FlagFilter::Any;
  int m_family = -1;
  std::vector<std::string> m_words;  // lowercase

  int m_sortColumn = -1;  // -1: source order (not sorted yet), as QSortFilterProxyModel
  Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
  std::unordered_map<int, std::vector<int>> m_ascending;  // by column
  std::vector<int> m_shown;                               // proxy row -> source row
  std::vector<int> m_proxyOf;                             // source row -> proxy row, -1 when hidden
};

}  // namespace ks
