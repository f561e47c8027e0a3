#pragma once
// The Search tab's "best so far by round" chart: per round of one task's search (views/logic/search_tree.h,
// bestSoFarByRound), the best trusted speedup of that round (points) and the best of every round up to it
// (a step line), log scale centred on 1×. Numbers the trust rule does not count (caught hack, fell back)
// and failed candidates are never a round's best. Clicking a point asks for that candidate (rowSelected).
// The chart sits in a small corner beside the tree: its title and key are one label under the plot that
// wraps ("Best so far by round: ━ best so far ● round's best"), not the chart's own title and legend, which
// were cut and ran into each other there.
#include <QWidget>
#include <vector>

#include "views/logic/search_tree.h"

class QChartView;
class QLabel;
class QLogValueAxis;
class QValueAxis;

namespace ks {

class BestByRoundChart : public QWidget {
  Q_OBJECT

 public:
  explicit BestByRoundChart(QWidget* parent = nullptr);

  // `why`: shown instead of the chart when `rounds` is empty (a flat run, every task at once).
  void setRounds(std::vector<RoundBest> rounds, const QString& why = {});
  const std::vector<RoundBest>& rounds() const { return m_rounds; }
  QChartView* chartView() const { return m_view; }
  QLabel* note() const { return m_note; }
  QLabel* key() const { return m_key; }

 signals:
  void rowSelected(int row);

 private:
  // Spaces the axes' ticks so that their labels fit the plot (called as the plot's size changes).
  void spaceTicks();

  std::vector<RoundBest> m_rounds;
  QValueAxis* m_x = nullptr;     // of the chart on show; null when none is
  QLogValueAxis* m_y = nullptr;
  QChartView* m_view;
  QLabel* m_key;
  QLabel* m_note;
};

}  // namespace ks
