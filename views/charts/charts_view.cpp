#include "views/charts/charts_view.h"

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
#include <QLegendMarker>
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
#include "core/stats/speedup_sets.h"
#include "core/stats/speedup_stats.h"
#include "views/charts/chart_export.h"
#include "views/charts/chart_style.h"
#include "views/charts/flag_matrix_chart.h"
#include "views/logic/empty_chart_text.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/logic/speedup_format.h"
#include "views/logic/stage_timer.h"

namespace ks {
using namespace chart;

ChartsView::ChartsView(QWidget* parent)
    : QWidget(parent),
      m_baseline(new QComboBox(this)),
      m_summary(new QLabel(this)),
      m_tabs(new QTabWidget(this)),
      m_histogram(new QChartView(this)),
      m_cdf(new QChartView(this)),
      m_levels(new QChartView(this)),
      m_versus(new QChartView(this)),
      m_matrix(new FlagMatrixChart(this)) {
  m_baseline->setObjectName(QStringLiteral("chartBaseline"));
  m_baseline->setToolTip(
      tr("The baseline (and timing mode) the charted speedups are recorded against; the "
         "task list's vs box and Speedup column follow it"));
  m_summary->setObjectName(QStringLiteral("chartSummary"));
  m_summary->setWordWrap(true);
  m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_tabs->setObjectName(QStringLiteral("chartTabs"));
  m_tabs->setDocumentMode(true);
  m_histogram->setObjectName(QStringLiteral("histogramView"));
  m_cdf->setObjectName(QStringLiteral("cdfView"));
  m_levels->setObjectName(QStringLiteral("levelView"));
  m_versus->setObjectName(QStringLiteral("versusView"));
  for (QChartView* view : {m_histogram, m_cdf, m_levels, m_versus})
    view->setRenderHint(QPainter::Antialiasing);
  addChartExport(m_histogram, QStringLiteral("histogram"));
  addChartExport(m_cdf, QStringLiteral("cdf"));
  addChartExport(m_levels, QStringLiteral("by-level"));
  addChartExport(m_versus, QStringLiteral("recorded-vs-measured"));
  m_tabs->addTab(m_histogram, tr("Histogram"));
  m_tabs->addTab(m_cdf, tr("CDF"));
  m_tabs->addTab(m_levels, tr("By level"));
  m_tabs->addTab(m_versus, tr("Recorded vs measured"));
  m_tabs->addTab(m_matrix, tr("Flags by task"));
  connect(m_matrix, &FlagMatrixChart::rowsSelected, this, &ChartsView::rowsSelected);
  connect(m_matrix, &FlagMatrixChart::familyChosen, this, &ChartsView::familyChosen);

  auto* topBar = new QWidget(this);  // the speedup charts' baseline and summary: not the matrix's
  auto* top = new QHBoxLayout(topBar);
  top->setContentsMargins(0, 0, 0, 0);
  auto* label = new QLabel(tr("Baseline"), this);
  label->setBuddy(m_baseline);
  top->addWidget(label);
  top->addWidget(m_baseline);
  top->addSpacing(12);
  top->addWidget(m_summary, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(topBar);
  layout->addWidget(m_tabs, 1);
  connect(m_tabs, &QTabWidget::currentChanged, this,
          [this, topBar] { topBar->setVisible(m_tabs->currentWidget() != m_matrix); });
  connect(m_baseline, &QComboBox::currentIndexChanged, this, [this] {
    m_preferred = series();
    rebuild();
    emit seriesChosen(m_preferred);
  });
  rebuild();
}

void ChartsView::setRun(std::shared_ptr<const LoadedRun> run) {
  m_run = std::move(run);
  {
    const QSignalBlocker block(m_baseline);
    m_baseline->clear();
    if (m_run)
      for (const SpeedupSeries& s : m_run->series())
        m_baseline->addItem(QString::fromStdString(seriesLabel(s)));
    m_baseline->setCurrentIndex(m_run ? std::max(0, m_run->seriesIndex(m_preferred)) : -1);
  }
  m_matrix->setRun(m_run);
  rebuild();
}

void ChartsView::setHistory(std::shared_ptr<const MeasuredHistory> history) {
  m_history = std::move(history);
  m_matrix->setHistory(m_history);
  rebuild();  // a re-run's verdict (caught hack, fell back) changes how every chart draws its row
}

void ChartsView::refreshMeasured() {
  m_matrix->refresh();
  rebuild();
}

void ChartsView::refreshFlags(std::shared_ptr<const LoadedRun> flagged) {
  m_run = std::move(flagged);
  m_matrix->setRun(m_run);
  rebuild();  // a static hack flag is a verdict too
}

void ChartsView::observe(const OpenRun* open) {
  connect(open, &OpenRun::opened, this, [this, open] {
    const StageTimer timer("view: charts (distribution, histogram, CDF, levels, flag matrix)");
    m_preferred = open->series();
    m_history = open->history();  // drawn by setRun's rebuild: the old run is not charted again
    m_matrix->setHistory(m_history);
    setRun(open->run());
  });
  connect(open, &OpenRun::flagsChanged, this, [this, open] { refreshFlags(open->run()); });
  connect(open, &OpenRun::seriesChanged, this, [this, open] { setSeries(open->series()); });
  connect(open, &OpenRun::historyChanged, this, [this, open] { setHistory(open->history()); });
  connect(open, &OpenRun::runAdded, this, [this, open] { setHistory(open->history()); });
}

void ChartsView::setSeries(const SpeedupSeries& series) {
  m_preferred = series;
  const int index = m_run ? m_run->seriesIndex(series) : -1;
  if (index >= 0 && index != m_baseline->currentIndex()) m_baseline->setCurrentIndex(index);  // rebuilds
}

SpeedupSeries ChartsView::series() const {
  const int index = m_baseline->currentIndex();
  if (m_run && index >= 0 && index < static_cast<int>(m_run->series().size()))
    return m_run->series()[static_cast<std::size_t>(index)];
  return m_preferred;
}

void ChartsView::setBaseline(const QString& label) {
  const std::optional<SpeedupSeries> found =
      m_run ? findSeries(m_run->series(), label.toStdString()) : std::nullopt;
  setSeries(found.value_or(SpeedupSeries{label.toStdString(), {}}));
}

QString ChartsView::baseline() const { return QString::fromStdString(seriesLabel(series())); }

QChart* ChartsView::emptyChart(const QString& title) const {
  const std::string why = emptyChartText(m_run.get(), series(), m_distribution);
  if (why.empty()) return nullptr;
  // The reason under the title, and no axes: an axis without a range draws its title over the chart's.
  QChart* chart = makeChart(
      title +
      tr("<br><span style='font-weight: normal'>%1</span>").arg(QString::fromStdString(why).toHtmlEscaped()));
  chart->legend()->hide();
  return chart;
}

QList<QBarSet*> ChartsView::histogramSets() const {
  QChart* chart = m_histogram->chart();
  if (!chart || chart->series().isEmpty()) return {};
  return static_cast<QStackedBarSeries*>(chart->series().first())->barSets();
}

void ChartsView::rebuild() {
  const SpeedupSeries series = this->series();
  {
    const StageTimer timer("charts: the distribution (every row's speedup and trust, sorted; bins)");
    m_distribution = m_run ? SpeedupDistribution(*m_run, series, m_history.get()) : SpeedupDistribution();
    m_bins = m_distribution.log2Bins();
  }
  const auto& points = m_distribution.points();
  if (points.empty()) {
    m_summary->setText(
        QString::fromStdString(emptyChartText(m_run.get(), series, m_distribution)).toHtmlEscaped());
  } else {
    // The statistics are those of the numbers drawn as wins: a caught hack's or a fallback-timed number is
    // counted apart, never in the median (speedup_trust.h decides which).
    const StageTimer timer("charts: summary statistics");
    std::vector<double> values;
    values.reserve(points.size());
    for (const auto& p : points)
      if (p.trusted()) values.push_back(p.speedup);
    QString text = tr("<b>%1</b> candidates with a speedup").arg(points.size());
    if (!values.empty()) {
      const SpeedupStats s = computeStats(values);
      const auto above =
          std::count_if(values.begin(), values.end(), [](double v) { return v > kSpeedupThreshold; });
      // The set's words are kscope summary's too (core/stats/speedup_sets.h).
      text += values.size() != points.size()
                  ? QStringLiteral(" · %1: ").arg(QString::fromStdString(ofTheWins(values.size())))
                  : QStringLiteral(" · ");
      text += tr("median <b>%1</b> · geomean <b>%2</b> · %3% above %4 · max %5")
                  .arg(formatSpeedup(s.median), formatSpeedup(s.geomean))
                  .arg(100.0 * static_cast<double>(above) / static_cast<double>(values.size()), 0, 'f', 0)
                  .arg(formatSpeedup(kSpeedupThreshold), formatSpeedup(s.max));
    }
    if (const QString notWins = notWinsText(); !notWins.isEmpty()) text += QStringLiteral(" · ") + notWins;
    if (m_distribution.unplottable() > 0)
      text += tr(" · %1 not charted (zero, negative or not finite)").arg(m_distribution.unplottable());
    m_summary->setText(text);
  }
  {
    const StageTimer timer("charts: histogram");
    buildHistogram();
  }
  {
    const StageTimer timer("charts: CDF");
    buildCdf();
  }
  {
    const StageTimer timer("charts: per level");
    buildLevels();
  }
  const StageTimer timer("charts: recorded vs measured");
  buildVersus();
}

QString ChartsView::summaryText() const { return m_summary->text(); }

QString ChartsView::notWinsText() const {
  return QString::fromStdString(ks::notWinsText(static_cast<std::size_t>(m_distribution.fallbackTimed()),
                                                static_cast<std::size_t>(m_distribution.caughtHacks())));
}

void ChartsView::replaceChart(QChartView* view, QChart* chart) {
  QChart* old = view->chart();
  view->setChart(chart);  // the view owns the new chart and releases the old one
  delete old;
}

void ChartsView::selectPoints(std::size_t first, std::size_t last) {
  const auto& points = m_distribution.points();
  QList<int> rows;
  for (std::size_t i = first; i <= last && i < points.size(); ++i) rows << points[i].row;
  emit rowsSelected(rows);
}

}  // namespace ks
