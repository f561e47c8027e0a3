// ChartsView::buildHistogram: The speedup histogram on log2 bins, below and from 1× stacked; a click on a bar
// selects its candidates.
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

void ChartsView::buildHistogram() {
  if (QChart* empty = emptyChart(tr("Recorded speedup vs %1").arg(baseline()))) {
    replaceChart(m_histogram, empty);
    return;
  }
  // Legend labels are rich text: no "<" in them.
  auto* slower = new QBarSet(tr("slower than the baseline (below 1×)"));
  auto* faster = new QBarSet(tr("faster (1× and above)"));
  // A caught hack's or a fallback-timed number is counted in its bin but never as a win (speedup_trust.h).
  auto* notWin = new QBarSet(tr("caught hack or fallback-timed: not a win"));
  slower->setColor(kSlower);
  faster->setColor(kFaster);
  notWin->setColor(kNotAWin);
  slower->setBorderColor(kSlower.darker(120));
  faster->setBorderColor(kFaster.darker(120));
  notWin->setBorderColor(kNotAWin.darker(130));
  QStringList categories;
  for (const auto& bin : m_bins) {
    const auto trusted = static_cast<qreal>(bin.rows.size() - static_cast<std::size_t>(bin.notWins));
    const bool below = bin.high <= 1.0;
    *slower << (below ? trusted : 0.0);
    *faster << (below ? 0.0 : trusted);
    *notWin << static_cast<qreal>(bin.notWins);
    categories << shortEdge(bin.low);
  }
  auto* series = new QStackedBarSeries;
  series->setBarWidth(0.9);
  series->append(slower);
  series->append(faster);
  series->append(notWin);
  QString title = tr("Recorded speedup vs %1 — %2, log₂ bins")
                      .arg(baseline(), counted(static_cast<qsizetype>(m_distribution.points().size()),
                                               tr("candidate"), tr("candidates")));
  if (const QString notWins = notWinsText(); !notWins.isEmpty())
    title += tr("<br><span style='font-weight: normal'>%1 (grey)</span>").arg(notWins);
  QChart* chart = makeChart(title);
  chart->addSeries(series);
  auto* x = new QBarCategoryAxis;
  x->append(categories);
  x->setTitleText(tr("speedup (×): a bar counts the candidates from its label up to the next label"));
  // Upright labels need about 40 px a bin; with more bins than a narrow chart (1024 × 700) gives that room,
  // Qt Charts elided them to "1…": turned, they fit.
  if (categories.size() > 12) x->setLabelsAngle(-90);
  auto* y = new QValueAxis;
  y->setLabelFormat(QStringLiteral("%d"));
  y->setTitleText(tr("candidates"));
  std::size_t most = 0;
  for (const auto& bin : m_bins) most = std::max(most, bin.rows.size());
  // Counts are whole: ticks at a whole step (1, 2, 5, 10, 20, ...) so that no label repeats ("0, 0, 1, 1",
  // the repeats once seen), about five of them.
  int step = 1;
  for (int scale = 1; step * 5 < static_cast<int>(most); scale *= 10)
    for (int m : {1, 2, 5})
      if (step * 5 < static_cast<int>(most)) step = m * scale;
  const int top = std::max(step, (static_cast<int>(most) / step + 1) * step);
  y->setRange(0, top);
  y->setTickType(QValueAxis::TicksDynamic);
  y->setTickAnchor(0);
  y->setTickInterval(step);
  frame(chart, x, y);
  for (QBarSet* set : {slower, faster, notWin}) {
    connect(set, &QBarSet::clicked, this, [this](int index) {
      if (index >= 0 && index < static_cast<int>(m_bins.size()))
        emit rowsSelected(QList<int>(m_bins[static_cast<std::size_t>(index)].rows.begin(),
                                     m_bins[static_cast<std::size_t>(index)].rows.end()));
    });
    connect(set, &QBarSet::hovered, this, [this](bool on, int index) {
      if (!on || index < 0 || index >= static_cast<int>(m_bins.size())) return QToolTip::hideText();
      const auto& bin = m_bins[static_cast<std::size_t>(index)];
      const QString notWins = bin.notWins > 0
                                  ? tr(" (%1 a caught hack or fallback-timed: not a win)").arg(bin.notWins)
                                  : QString();
      QToolTip::showText(QCursor::pos(), tr("%1× to %2×: %3%4 — click to select them")
                                             .arg(edge(bin.low), edge(bin.high),
                                                  counted(static_cast<qsizetype>(bin.rows.size()),
                                                          tr("candidate"), tr("candidates")),
                                                  notWins));
    });
  }
  replaceChart(m_histogram, chart);
}

}  // namespace ks
