#include "views/charts/chart_style.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLogValueAxis>
#include <algorithm>
#include <cmath>

namespace ks::chart {
QString edge(double value) { return QString::number(value, 'g', 3); }

QString shortEdge(double value) {
  return value >= 10 ? QString::number(std::round(value), 'f', 0) : QString::number(value, 'g', 2);
}

QChart* makeChart(const QString& title) {
  auto* chart = new QChart;
  chart->setTitle(title);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setBackgroundRoundness(0);
  chart->setMargins(QMargins(6, 6, 6, 6));
  QFont font = chart->titleFont();
  font.setBold(true);
  chart->setTitleFont(font);
  return chart;
}

QLogValueAxis* makeLogAxis(double lo, double hi, const QString& title) {
  auto* axis = new QLogValueAxis;
  axis->setBase(2);
  axis->setLabelFormat(QStringLiteral("%g"));  // the format goes through printf: no "×" here
  axis->setTitleText(title);
  axis->setMinorTickCount(-1);
  axis->setRange(std::exp2(std::floor(std::log2(std::min(lo, 1.0)))),
                 std::exp2(std::ceil(std::log2(std::max(hi, 1.0))) + (hi <= 1.0 ? 1 : 0)));
  return axis;
}

void frame(QChart* chart, QAbstractAxis* x, QAbstractAxis* y) {
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  chart->legend()->setAlignment(Qt::AlignTop);
}

void showInLegend(QChart* chart, QAbstractSeries* series, bool shown) {
  for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(shown);
}

}  // namespace ks::chart
