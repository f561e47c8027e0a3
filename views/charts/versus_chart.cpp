// ChartsView::buildVersus: Recorded against re-measured in the charted series: one point per candidate whose
// recorded program ran here and has a number against the series' baseline and mode (speedup_series.h), the
// y = x line and the band where they agree (core/runs/agreement.h).
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
#include "views/logic/speedup_series.h"
#include "views/logic/speedup_trust.h"

namespace ks {

using namespace chart;

void ChartsView::buildVersus() {
  m_versusPoints.clear();
  const SpeedupSeries series = this->series();
  int failed = 0, untimedHere = 0, unrecorded = 0, outside = 0;
  for (int row = 0; m_run && m_history && row < m_run->rowCount(); ++row) {
    const Candidate* c = m_run->candidate(row);
    const runs::MeasuredRun* measured = c ? m_history->latestOfRecorded(row) : nullptr;
    if (!measured) continue;
    const auto recorded = recordedSpeedup(*c, series);
    const auto here = measuredSpeedup(*measured, series);  // against the same baseline, by the same method
    if (!measured->correct() || !measured->row.speedup || !(*measured->row.speedup > 0)) {
      ++failed;
    } else if (!here || !(*here > 0) || !std::isfinite(*here)) {
      ++untimedHere;
    } else if (!recorded || !(*recorded > 0) || !std::isfinite(*recorded)) {
      ++unrecorded;
    } else {
      VersusPoint point{QPointF(*recorded, *here), row, std::nullopt,
                        trustHeadline(speedupTrust(*m_run, m_history.get(), row))};
      // The interval is of the run's own speedup (against the reference): the default series' only.
      if (series.isDefault() && measured->result && measured->result->timing &&
          measured->result->timing->speedupCi95) {
        const auto& ci = *measured->result->timing->speedupCi95;
        if (ci.low > 0 && std::isfinite(ci.low) && std::isfinite(ci.high)) point.interval = {ci.low, ci.high};
      }
      outside += point.verdict.empty() && runs::disagrees(*here, *recorded);
      m_versusPoints.push_back(std::move(point));
    }
  }
  QString title =
      tr("Recorded vs measured speedup (vs %1) — %2")
          .arg(series.isDefault() ? tr("the reference") : baseline(),
               counted(static_cast<qsizetype>(m_versusPoints.size()), tr("candidate"), tr("candidates")));
  if (!m_versusPoints.empty())
    title += tr(", %1 outside ±%2%").arg(outside).arg(runs::kDisagreement * 100, 0, 'f', 0);
  QStringList notCharted;
  if (failed > 0) notCharted << tr("%1 failed or untimed here").arg(failed);
  if (untimedHere > 0) notCharted << tr("%1 not timed against %2 here").arg(untimedHere).arg(baseline());
  if (unrecorded > 0) notCharted << tr("%1 without a recorded speedup").arg(unrecorded);
  if (!notCharted.isEmpty())
    title += tr("<br><span style='font-weight: normal'>Not charted: %1</span>")
                 .arg(notCharted.join(QStringLiteral(", ")));
  QChart* chart = makeChart(title);
  if (m_versusPoints.empty()) {
    chart->setTitle(title +
                    tr("<br>Run candidates (F9, or Run All Visible) to chart what this machine measures."));
    replaceChart(m_versus, chart);
    return;
  }
  double lo = INFINITY, hi = 0;
  for (const auto& p : m_versusPoints) {
    lo = std::min({lo, p.at.x(), p.at.y(), p.interval ? p.interval->first : INFINITY});
    hi = std::max({hi, p.at.x(), p.at.y(), p.interval ? p.interval->second : 0.0});
  }
  auto* x = makeLogAxis(lo, hi, tr("recorded speedup (×, log scale)"));
  auto* y = makeLogAxis(lo, hi, tr("measured here (×, log scale)"));
  const double a = x->min(), b = x->max();
  auto* upper = new QLineSeries;
  auto* lower = new QLineSeries;
  *upper << QPointF(a, a * (1 + runs::kDisagreement)) << QPointF(b, b * (1 + runs::kDisagreement));
  *lower << QPointF(a, a * (1 - runs::kDisagreement)) << QPointF(b, b * (1 - runs::kDisagreement));
  auto* band = new QAreaSeries(upper, lower);
  band->setName(tr("within ±%1%").arg(runs::kDisagreement * 100, 0, 'f', 0));
  band->setColor(QColor(0x3b, 0x6e, 0xb5, 40));
  band->setBorderColor(QColor(0x3b, 0x6e, 0xb5, 90));
  auto* diagonal = new QLineSeries;
  diagonal->setName(tr("measured = recorded"));
  QPen pen(QColor(0x60, 0x60, 0x60));
  pen.setStyle(Qt::DashLine);
  diagonal->setPen(pen);
  *diagonal << QPointF(a, a) << QPointF(b, b);
  auto* agree = new QScatterSeries;
  agree->setName(tr("agrees"));
  agree->setColor(kFaster);
  auto* disagree = new QScatterSeries;
  disagree->setName(tr("disagrees by more than %1%").arg(runs::kDisagreement * 100, 0, 'f', 0));
  disagree->setColor(QColor(0xd4, 0x8a, 0x00));
  // A caught hack's or a fallback's number is no agreement nor disagreement of the kernel: grey.
  auto* untrusted = new QScatterSeries;
  untrusted->setName(tr("caught hack or fell back: not the kernel's number"));
  untrusted->setColor(QColor(0x9a, 0x9a, 0x9a));
  untrusted->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
  for (QScatterSeries* dots : {agree, disagree, untrusted}) {
    dots->setMarkerSize(9);
    dots->setBorderColor(dots->color().darker(140));
  }
  for (const auto& p : m_versusPoints)
    (!p.verdict.empty() ? untrusted : runs::disagrees(p.at.y(), p.at.x()) ? disagree : agree)->append(p.at);
  // Each measured speedup's 95 % interval over its trials, a vertical bar through its dot (one legend entry).
  QList<QLineSeries*> bars;
  for (const auto& p : m_versusPoints) {
    if (!p.interval) continue;
    auto* bar = new QLineSeries;
    bar->setPen(QPen(QColor(0x40, 0x40, 0x40, 160), 1.5));
    *bar << QPointF(p.at.x(), p.interval->first) << QPointF(p.at.x(), p.interval->second);
    bars << bar;
  }
  for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{band, diagonal}) chart->addSeries(s);
  for (QLineSeries* bar : bars) chart->addSeries(bar);
  for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{agree, disagree, untrusted})
    chart->addSeries(s);
  for (int i = 0; i < bars.size(); ++i) {
    if (i == 0) bars[i]->setName(tr("95% interval"));
    showInLegend(chart, bars[i], i == 0);
  }
  frame(chart, x, y);
  for (QScatterSeries* dots : {agree, disagree, untrusted}) {
    connect(dots, &QScatterSeries::clicked, this, [this](const QPointF& clicked) {
      const auto nearest =
          std::min_element(m_versusPoints.begin(), m_versusPoints.end(), [&](const auto& p, const auto& q) {
            const auto distance = [&](const QPointF& at) {
              return std::hypot(std::log2(at.x() / clicked.x()), std::log2(at.y() / clicked.y()));
            };
            return distance(p.at) < distance(q.at);
          });
      if (nearest != m_versusPoints.end()) emit rowsSelected({nearest->row});
    });
    connect(dots, &QScatterSeries::hovered, this, [this](const QPointF& at, bool on) {
      if (!on) return QToolTip::hideText();
      for (const auto& p : m_versusPoints)
        if (p.at == at) {
          const Task& task = m_run->task(p.row);
          const QString interval =
              p.interval
                  ? tr(" [%1 to %2]").arg(formatSpeedup(p.interval->first), formatSpeedup(p.interval->second))
                  : QString();
          const QString verdict =
              p.verdict.empty() ? QString() : QString::fromStdString(p.verdict) + QStringLiteral(" · ");
          QToolTip::showText(QCursor::pos(),
                             tr("%1%2 %3: recorded %4, measured %5%6 — click to select")
                                 .arg(verdict, QString::fromStdString(task.key()),
                                      QString::fromStdString(m_run->candidate(p.row)->id),
                                      formatSpeedup(p.at.x()), formatSpeedup(p.at.y()), interval));
          return;
        }
    });
  }
  replaceChart(m_versus, chart);
}

}  // namespace ks
