// ChartsView::buildCdf: The CDF of the sorted speedups; a click on a point selects its candidate, a drag a
// range.
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

void ChartsView::buildCdf() {
  const auto& points = m_distribution.points();
  QString title = tr("Cumulative distribution of the recorded speedup vs %1").arg(baseline());
  if (const QString notWins = notWinsText(); !notWins.isEmpty())
    title += tr("<br><span style='font-weight: normal'>%1 (grey squares)</span>").arg(notWins);
  m_cdfSamples.clear();
  if (QChart* empty = emptyChart(title)) {
    replaceChart(m_cdf, empty);
    return;
  }
  QChart* chart = makeChart(title);
  const std::size_t n = points.size();
  const std::size_t markers = std::min(n, kMaxMarkers);
  for (std::size_t i = 0; i < markers; ++i)
    m_cdfSamples.push_back(markers == 1 ? n - 1 : i * (n - 1) / (markers - 1));
  auto* line = new QLineSeries;
  line->setName(tr("share of candidates at or below"));
  auto* dots = new QScatterSeries;
  dots->setName(tr("candidates"));
  dots->setMarkerSize(6);
  dots->setColor(kFaster);
  dots->setBorderColor(kFaster.darker(130));
  line->setColor(kFaster.lighter(130));
  // A caught hack's or a fallback-timed number stays on the curve (it is what the file records) but its
  // marker is a grey square, never a win's dot (speedup_trust.h, through the distribution's points).
  auto* notWins = new QScatterSeries;
  notWins->setName(tr("caught hack or fallback-timed: not a win"));
  notWins->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  notWins->setMarkerSize(8);
  notWins->setColor(kNotAWin);
  notWins->setBorderColor(kNotAWin.darker(140));
  QList<QPointF> curve;
  QList<QPointF> marks;
  QList<QPointF> greyMarks;
  for (std::size_t i : m_cdfSamples) {
    const QPointF p(points[i].speedup, 100.0 * static_cast<double>(i + 1) / static_cast<double>(n));
    curve << p;
    (points[i].trusted() ? marks : greyMarks) << p;
  }
  line->replace(curve);
  dots->replace(marks);
  notWins->replace(greyMarks);
  auto* one = new QLineSeries;
  one->setName(tr("1×"));
  QPen pen(QColor(0x80, 0x80, 0x80));
  pen.setStyle(Qt::DashLine);
  one->setPen(pen);
  *one << QPointF(1.0, 0) << QPointF(1.0, 100);
  chart->addSeries(one);
  chart->addSeries(line);
  chart->addSeries(notWins);
  chart->addSeries(dots);
  auto* x = makeLogAxis(points.front().speedup, points.back().speedup, tr("speedup (×, log scale)"));
  auto* y = new QValueAxis;
  y->setRange(0, 100);
  y->setLabelFormat(QStringLiteral("%d%%"));
  y->setTitleText(tr("candidates at or below"));
  frame(chart, x, y);
  showInLegend(chart, one, false);
  showInLegend(chart, notWins, !greyMarks.isEmpty());
  const auto select = [this](const QPointF& clicked) {
    const auto& pts = m_distribution.points();
    // The marker nearest the click (in log x); it stands for the sorted points since the previous one.
    std::size_t best = 0;
    double bestDistance = INFINITY;
    for (std::size_t k = 0; k < m_cdfSamples.size(); ++k) {
      const std::size_t i = m_cdfSamples[k];
      const double dy =
          (100.0 * static_cast<double>(i + 1) / static_cast<double>(pts.size()) - clicked.y()) / 100;
      const double dx = std::log2(pts[i].speedup) - std::log2(clicked.x());
      if (dx * dx + dy * dy < bestDistance) {
        bestDistance = dx * dx + dy * dy;
        best = k;
      }
    }
    selectPoints(best == 0 ? 0 : m_cdfSamples[best - 1] + 1, m_cdfSamples[best]);
  };
  connect(dots, &QScatterSeries::clicked, this, select);
  connect(notWins, &QScatterSeries::clicked, this, select);
  replaceChart(m_cdf, chart);
}

}  // namespace ks
