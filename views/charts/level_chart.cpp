// ChartsView::buildLevels: A box plot of the speedups per KernelBench level, with its points.
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QTabWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "core/runs/agreement.h"
#include "core/stats/speedup_stats.h"
#include "views/charts/chart_style.h"
#include "views/charts/charts_view.h"
#include "views/charts/flag_matrix_chart.h"
#include "views/logic/counted.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/logic/speedup_format.h"

namespace ks {

using namespace chart;

void ChartsView::buildLevels() {
  QString title = tr("Recorded speedup vs %1 per level").arg(baseline());
  if (const QString notWins = notWinsText(); !notWins.isEmpty())
    title += tr("<br><span style='font-weight: normal'>%1 (grey squares)</span>").arg(notWins);
  if (QChart* empty = emptyChart(title)) {
    replaceChart(m_levels, empty);
    return;
  }
  QChart* chart = makeChart(title);
  const std::vector<int> levels = m_distribution.levels();
  auto* boxes = new QBoxPlotSeries;
  boxes->setBrush(QColor(0xdd, 0xe7, 0xf4));
  boxes->setPen(QPen(kFaster.darker(120)));
  QStringList categories;
  std::vector<std::vector<SpeedupDistribution::Point>> groups;
  for (int level : levels) {
    groups.push_back(m_distribution.pointsOfLevel(level));
    std::vector<double> values;
    for (const auto& p : groups.back()) values.push_back(p.speedup);
    const SpeedupStats s = computeStats(values);
    const auto notWins = std::count_if(groups.back().begin(), groups.back().end(),
                                       [](const SpeedupDistribution::Point& p) { return !p.trusted(); });
    const QString n =
        notWins > 0 ? tr("n=%1, %2 not wins").arg(values.size()).arg(notWins) : tr("n=%1").arg(values.size());
    const QString label = level > 0 ? tr("Level %1 (%2)").arg(level).arg(n) : tr("No level (%1)").arg(n);
    categories << label;
    auto* set = new QBoxSet(s.min, s.p25, s.median, s.p75, s.max, label);
    boxes->append(set);
  }
  auto* dots = new QScatterSeries;
  dots->setMarkerSize(5);
  dots->setColor(QColor(0x3b, 0x6e, 0xb5, 140));
  dots->setBorderColor(Qt::transparent);
  dots->setName(tr("candidates"));
  // The box is the recorded distribution; a caught hack's or a fallback-timed number is a grey square in it,
  // never a win's dot (speedup_trust.h).
  auto* greyDots = new QScatterSeries;
  greyDots->setName(tr("caught hack or fallback-timed: not a win"));
  greyDots->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  greyDots->setMarkerSize(7);
  greyDots->setColor(kNotAWin);
  greyDots->setBorderColor(kNotAWin.darker(140));
  auto rowsAt = std::make_shared<std::vector<std::pair<QPointF, int>>>();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    const std::size_t shown = std::min(group.size(), kMaxMarkers);
    for (std::size_t k = 0; k < shown; ++k) {
      const auto& p = group[shown == group.size() ? k : k * (group.size() - 1) / (shown - 1)];
      // Spread the points across the box by their row number, so equal speedups stay apart.
      const double jitter = (static_cast<double>((p.row * 7919) % 61) / 60.0 - 0.5) * 0.5;
      const QPointF at(static_cast<double>(g) + jitter, p.speedup);
      (p.trusted() ? dots : greyDots)->append(at);
      rowsAt->emplace_back(at, p.row);
    }
  }
  chart->addSeries(boxes);
  chart->addSeries(dots);
  chart->addSeries(greyDots);
  auto* x = new QBarCategoryAxis;
  x->append(categories);
  auto* y = makeLogAxis(m_distribution.points().front().speedup, m_distribution.points().back().speedup,
                        tr("speedup (×, log scale)"));
  frame(chart, x, y);
  showInLegend(chart, boxes, false);
  showInLegend(chart, dots, greyDots->count() > 0);
  showInLegend(chart, greyDots, greyDots->count() > 0);
  connect(boxes, &QBoxPlotSeries::clicked, this, [this, levels, boxes](QBoxSet* set) {
    const int index = static_cast<int>(boxes->boxSets().indexOf(set));
    if (index < 0) return;
    QList<int> rows;
    for (const auto& p : m_distribution.pointsOfLevel(levels[static_cast<std::size_t>(index)])) rows << p.row;
    emit rowsSelected(rows);
  });
  for (QScatterSeries* series : {dots, greyDots})
    connect(series, &QScatterSeries::clicked, this, [this, rowsAt](const QPointF& clicked) {
      const auto it = std::min_element(rowsAt->begin(), rowsAt->end(), [&](const auto& a, const auto& b) {
        return QLineF(a.first, clicked).length() < QLineF(b.first, clicked).length();
      });
      if (it != rowsAt->end()) emit rowsSelected({it->second});
    });
  replaceChart(m_levels, chart);
}

}  // namespace ks
