#pragma once
// What the charts of the Charts tab share (views/charts/*_chart.cpp): colours, marker limits, chart and log
// axis set-up, bin-edge labels. Internal to views/charts.
#include <QColor>
#include <QString>
#include <cstddef>

class QAbstractAxis;
class QAbstractSeries;
class QChart;
class QLogValueAxis;

namespace ks::chart {

inline constexpr std::size_t kMaxMarkers =
    2000;  // per series: beyond that, markers stand for quantile ranges
inline const QColor kFaster(0x3b, 0x6e, 0xb5);
inline const QColor kSlower(0xc9, 0x4a, 0x3f);
// A caught hack's or a fallback-timed number (speedup_trust.h): grey in every chart, never a win's colour.
inline const QColor kNotAWin(0x9a, 0x9a, 0x9a);

QString edge(double value);
// A bin edge short enough for a category label: "0.35", "1.4", "2", "11", "181".
QString shortEdge(double value);
QChart* makeChart(const QString& title);
// Log axis over [lo, hi] widened to whole octaves and to include 1×.
QLogValueAxis* makeLogAxis(double lo, double hi, const QString& title);
// `x` at the bottom and `y` on the left of `chart`, every series it holds now attached to both, and the
// legend above the plot: the frame every chart of the tab shares. Add the series first.
void frame(QChart* chart, QAbstractAxis* x, QAbstractAxis* y);
// Shows or hides the legend entries of one series (a helper line, or a "not a win" series with no points).
void showInLegend(QChart* chart, QAbstractSeries* series, bool shown);

}  // namespace ks::chart
