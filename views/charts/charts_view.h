#pragma once
// Speedup charts for one recorded series at a time (a baseline and timing mode, chosen in the Baseline box,
// which follows the open run's series and so the task table's vs box): a histogram on log2 bins, the CDF of
// sorted speedups, and a box plot per level with its points; and recorded against re-measured: one point
// per candidate whose recorded program was timed here (the recorded speedup in the series on x, the newest
// run's against the same baseline and mode on y, both log, its 95 % interval as a vertical bar where the
// result has one), with the y = x line and the band of ±kDisagreement around it. A chart with nothing to
// draw says why in its title (empty_chart_text.h) and draws no axes. Clicking a
// bar, a point or a box asks for those candidates to be selected (rowsSelected, LoadedRun rows). A last tab,
// "Flags by task", is the task × flag family matrix (FlagMatrixChart); clicking a raised cell asks for the
// task list to be filtered by that family and those candidates selected (familyChosen).
#include <QList>
#include <QPointF>
#include <QWidget>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "views/logic/speedup_distribution.h"

class QBarSet;
class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QTabWidget;

namespace ks {

class FlagMatrixChart;
class LoadedRun;
class MeasuredHistory;
class OpenRun;

class ChartsView : public QWidget {
  Q_OBJECT

 public:
  explicit ChartsView(QWidget* parent = nullptr);

  // Follows `open` from now on: its run, flags, history and current row (docs/architecture.md).
  void observe(const OpenRun* open);
  void setRun(std::shared_ptr<const LoadedRun> run);
  // Charts `series`; when the run does not record it, the choice is remembered for the next run.
  void setSeries(const SpeedupSeries& series);
  SpeedupSeries series() const;
  // The series labelled `label` ("torch.matmul (offline)") or, a baseline alone, its first mode's.
  void setBaseline(const QString& label);
  QString baseline() const;  // the label of series()
  // The re-runs the recorded-vs-measured chart shows; refreshMeasured() after the history gained runs.
  void setHistory(std::shared_ptr<const MeasuredHistory> history);
  void refreshMeasured();
  void refreshFlags(std::shared_ptr<const LoadedRun> flagged);  // the matrix charts them

  const SpeedupDistribution& distribution() const { return m_distribution; }
  const std::vector<SpeedupDistribution::Bin>& bins() const { return m_bins; }
  // The histogram's three bar sets: below 1×, from 1× up, and not a win (a caught hack or a fallback-timed
  // number, speedup_trust.h); a candidate is counted in exactly one of them.
  QList<QBarSet*> histogramSets() const;
  QChartView* histogramView() const { return m_histogram; }
  QChartView* cdfView() const { return m_cdf; }
  QChartView* levelView() const { return m_levels; }
  QChartView* versusView() const { return m_versus; }
  FlagMatrixChart* flagMatrix() const { return m_matrix; }
  struct VersusPoint {
    QPointF at;  // (recorded, measured) speedup
    int row = 0;
    std::optional<std::pair<double, double>> interval;  // the measured speedup's 95 % interval, when known
    std::string verdict;  // trustHeadline of the row (speedup_trust.h); empty: drawn as a number to trust
  };
  const std::vector<VersusPoint>& versusPoints() const { return m_versusPoints; }
  QTabWidget* tabs() const { return m_tabs; }
  // "2 fallback-timed, 1 caught hack not shown as wins"; empty when every charted number is trusted. The
  // summary line and each speedup chart's title say it.
  QString notWinsText() const;
  QString summaryText() const;

 signals:
  void rowsSelected(const QList<int>& rows);
  void seriesChosen(const SpeedupSeries& series);  // the user picked another in the Baseline box
  void familyChosen(const QString& family, const QList<int>& rows);

 private:
  void rebuild();
  void buildHistogram();
  void buildCdf();
  void buildLevels();
  void buildVersus();
  void replaceChart(QChartView* view, QChart* chart);
  // The chart to show when the distribution has no points: `title` and why, without axes; nullptr when it
  // has points.
  QChart* emptyChart(const QString& title) const;
  void selectPoints(std::size_t first, std::size_t last);  // sorted point indexes, inclusive

  std::shared_ptr<const LoadedRun> m_run;
  std::shared_ptr<const MeasuredHistory> m_history;
  std::vector<VersusPoint> m_versusPoints;
  SpeedupDistribution m_distribution;
  std::vector<SpeedupDistribution::Bin> m_bins;
  std::vector<std::size_t> m_cdfSamples;  // index into points() of every CDF marker
  SpeedupSeries m_preferred;              // the series last chosen
  QComboBox* m_baseline;
  QLabel* m_summary;
  QTabWidget* m_tabs;
  QChartView* m_histogram;
  QChartView* m_cdf;
  QChartView* m_levels;
  QChartView* m_versus;
  FlagMatrixChart* m_matrix;
};

}  // namespace ks
