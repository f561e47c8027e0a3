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
#include "core/stats/speedup_stats.h"
#include "views/charts/flag_matrix_chart.h"
#include "views/model/counted.h"
#include "views/model/loaded_run.h"
#include "views/model/measured_history.h"
#include "views/model/open_run.h"
#include "views/model/speedup_format.h"

namespace ks {
namespace {

constexpr std::size_t kMaxMarkers = 2000;  // per series: beyond that, markers stand for quantile ranges
const QColor kFaster(0x3b, 0x6e, 0xb5);
const QColor kSlower(0xc9, 0x4a, 0x3f);

QString edge(double value) { return QString::number(value, 'g', 3); }

// A bin edge short enough for a category label: "0.35", "1.4", "2", "11", "181".
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

// Log axis over [lo, hi] widened to whole octaves and to include 1×.
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

}  // namespace

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
  m_baseline->setToolTip(tr("The baseline the charted speedups are recorded against"));
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
    m_preferred = m_baseline->currentText();
    rebuild();
  });
  rebuild();
}

void ChartsView::setRun(std::shared_ptr<const LoadedRun> run) {
  m_run = std::move(run);
  {
    const QSignalBlocker block(m_baseline);
    m_baseline->clear();
    if (m_run)
      for (const auto& b : m_run->baselines()) m_baseline->addItem(QString::fromStdString(b));
    m_baseline->setCurrentIndex(std::max(0, m_baseline->findText(m_preferred)));
  }
  m_matrix->setRun(m_run);
  rebuild();
}

void ChartsView::setHistory(std::shared_ptr<const MeasuredHistory> history) {
  m_history = std::move(history);
  m_matrix->setHistory(m_history);
  buildVersus();
}

void ChartsView::refreshMeasured() {
  m_matrix->refresh();
  buildVersus();
}

void ChartsView::refreshFlags(std::shared_ptr<const LoadedRun> flagged) {
  m_run = std::move(flagged);
  m_matrix->setRun(m_run);
}

void ChartsView::observe(const OpenRun* open) {
  connect(open, &OpenRun::opened, this, [this, open] {
    setHistory(open->history());
    setRun(open->run());
  });
  connect(open, &OpenRun::flagsChanged, this, [this, open] { refreshFlags(open->run()); });
  connect(open, &OpenRun::historyChanged, this, [this, open] { setHistory(open->history()); });
  connect(open, &OpenRun::runAdded, this, [this, open] { setHistory(open->history()); });
}

void ChartsView::setBaseline(const QString& baseline) {
  m_preferred = baseline;
  const int index = m_baseline->findText(baseline);
  if (index >= 0) m_baseline->setCurrentIndex(index);
}

QString ChartsView::baseline() const { return m_baseline->currentText(); }

QList<QBarSet*> ChartsView::histogramSets() const {
  QChart* chart = m_histogram->chart();
  if (!chart || chart->series().isEmpty()) return {};
  return static_cast<QStackedBarSeries*>(chart->series().first())->barSets();
}

void ChartsView::rebuild() {
  const std::string baseline = this->baseline().toStdString();
  m_distribution = m_run ? SpeedupDistribution(*m_run, baseline) : SpeedupDistribution();
  m_bins = m_distribution.log2Bins();
  const auto& points = m_distribution.points();
  if (!m_run) {
    m_summary->setText(tr("Open a run to chart its recorded speedups."));
  } else if (points.empty()) {
    m_summary->setText(tr("No candidate records a speedup against \"%1\".").arg(this->baseline()));
  } else {
    std::vector<double> values;
    values.reserve(points.size());
    for (const auto& p : points) values.push_back(p.speedup);
    const SpeedupStats s = computeStats(values);
    const auto above =
        std::count_if(values.begin(), values.end(), [](double v) { return v > kSpeedupThreshold; });
    QString text =
        tr("<b>%1</b> candidates with a speedup · median <b>%2</b> · geomean <b>%3</b> · "
           "%4% above %5 · max %6")
            .arg(points.size())
            .arg(formatSpeedup(s.median), formatSpeedup(s.geomean))
            .arg(100.0 * static_cast<double>(above) / static_cast<double>(values.size()), 0, 'f', 0)
            .arg(formatSpeedup(kSpeedupThreshold), formatSpeedup(s.max));
    if (m_distribution.unplottable() > 0)
      text += tr(" · %1 not charted (zero, negative or not finite)").arg(m_distribution.unplottable());
    m_summary->setText(text);
  }
  buildHistogram();
  buildCdf();
  buildLevels();
  buildVersus();
}

void ChartsView::replaceChart(QChartView* view, QChart* chart) {
  QChart* old = view->chart();
  view->setChart(chart);  // the view owns the new chart and releases the old one
  delete old;
}

void ChartsView::buildHistogram() {
  // Legend labels are rich text: no "<" in them.
  auto* slower = new QBarSet(tr("slower than the baseline (below 1×)"));
  auto* faster = new QBarSet(tr("faster (1× and above)"));
  slower->setColor(kSlower);
  faster->setColor(kFaster);
  slower->setBorderColor(kSlower.darker(120));
  faster->setBorderColor(kFaster.darker(120));
  QStringList categories;
  for (const auto& bin : m_bins) {
    const auto count = static_cast<qreal>(bin.rows.size());
    const bool below = bin.high <= 1.0;
    *slower << (below ? count : 0.0);
    *faster << (below ? 0.0 : count);
    categories << shortEdge(bin.low);
  }
  auto* series = new QStackedBarSeries;
  series->setBarWidth(0.9);
  series->append(slower);
  series->append(faster);
  QChart* chart =
      makeChart(tr("Recorded speedup vs %1 — %2, log₂ bins")
                    .arg(baseline(), counted(static_cast<qsizetype>(m_distribution.points().size()),
                                             tr("candidate"), tr("candidates"))));
  chart->addSeries(series);
  auto* x = new QBarCategoryAxis;
  x->append(categories);
  x->setTitleText(tr("speedup (×): a bar counts the candidates from its label up to the next label"));
  if (categories.size() > 20) x->setLabelsAngle(-90);
  auto* y = new QValueAxis;
  y->setLabelFormat(QStringLiteral("%d"));
  y->setTitleText(tr("candidates"));
  std::size_t most = 0;
  for (const auto& bin : m_bins) most = std::max(most, bin.rows.size());
  y->setRange(0, std::max<double>(1, static_cast<double>(most) * 1.08));
  y->applyNiceNumbers();
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  series->attachAxis(x);
  series->attachAxis(y);
  chart->legend()->setAlignment(Qt::AlignTop);
  for (QBarSet* set : {slower, faster}) {
    connect(set, &QBarSet::clicked, this, [this](int index) {
      if (index >= 0 && index < static_cast<int>(m_bins.size()))
        emit rowsSelected(QList<int>(m_bins[static_cast<std::size_t>(index)].rows.begin(),
                                     m_bins[static_cast<std::size_t>(index)].rows.end()));
    });
    connect(set, &QBarSet::hovered, this, [this](bool on, int index) {
      if (!on || index < 0 || index >= static_cast<int>(m_bins.size())) return QToolTip::hideText();
      const auto& bin = m_bins[static_cast<std::size_t>(index)];
      QToolTip::showText(QCursor::pos(), tr("%1× to %2×: %3 — click to select them")
                                             .arg(edge(bin.low), edge(bin.high),
                                                  counted(static_cast<qsizetype>(bin.rows.size()),
                                                          tr("candidate"), tr("candidates"))));
    });
  }
  replaceChart(m_histogram, chart);
}

void ChartsView::buildCdf() {
  const auto& points = m_distribution.points();
  QChart* chart = makeChart(tr("Cumulative distribution of the recorded speedup vs %1").arg(baseline()));
  m_cdfSamples.clear();
  if (points.empty()) {
    replaceChart(m_cdf, chart);
    return;
  }
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
  QList<QPointF> curve;
  QList<QPointF> marks;
  for (std::size_t i : m_cdfSamples) {
    const QPointF p(points[i].speedup, 100.0 * static_cast<double>(i + 1) / static_cast<double>(n));
    curve << p;
    marks << p;
  }
  line->replace(curve);
  dots->replace(marks);
  auto* one = new QLineSeries;
  one->setName(tr("1×"));
  QPen pen(QColor(0x80, 0x80, 0x80));
  pen.setStyle(Qt::DashLine);
  one->setPen(pen);
  *one << QPointF(1.0, 0) << QPointF(1.0, 100);
  chart->addSeries(one);
  chart->addSeries(line);
  chart->addSeries(dots);
  auto* x = makeLogAxis(points.front().speedup, points.back().speedup, tr("speedup (×, log scale)"));
  auto* y = new QValueAxis;
  y->setRange(0, 100);
  y->setLabelFormat(QStringLiteral("%d%%"));
  y->setTitleText(tr("candidates at or below"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  chart->legend()->hide();
  connect(dots, &QScatterSeries::clicked, this, [this](const QPointF& clicked) {
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
  });
  replaceChart(m_cdf, chart);
}

void ChartsView::buildLevels() {
  QChart* chart = makeChart(tr("Recorded speedup vs %1 per level").arg(baseline()));
  const std::vector<int> levels = m_distribution.levels();
  if (levels.empty()) {
    replaceChart(m_levels, chart);
    return;
  }
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
    const QString label = level > 0 ? tr("Level %1 (n=%2)").arg(level).arg(values.size())
                                    : tr("No level (n=%1)").arg(values.size());
    categories << label;
    auto* set = new QBoxSet(s.min, s.p25, s.median, s.p75, s.max, label);
    boxes->append(set);
  }
  auto* dots = new QScatterSeries;
  dots->setMarkerSize(5);
  dots->setColor(QColor(0x3b, 0x6e, 0xb5, 140));
  dots->setBorderColor(Qt::transparent);
  auto rowsAt = std::make_shared<std::vector<std::pair<QPointF, int>>>();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    const std::size_t shown = std::min(group.size(), kMaxMarkers);
    for (std::size_t k = 0; k < shown; ++k) {
      const auto& p = group[shown == group.size() ? k : k * (group.size() - 1) / (shown - 1)];
      // Spread the points across the box by their row number, so equal speedups stay apart.
      const double jitter = (static_cast<double>((p.row * 7919) % 61) / 60.0 - 0.5) * 0.5;
      const QPointF at(static_cast<double>(g) + jitter, p.speedup);
      dots->append(at);
      rowsAt->emplace_back(at, p.row);
    }
  }
  chart->addSeries(boxes);
  chart->addSeries(dots);
  auto* x = new QBarCategoryAxis;
  x->append(categories);
  auto* y = makeLogAxis(m_distribution.points().front().speedup, m_distribution.points().back().speedup,
                        tr("speedup (×, log scale)"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  chart->legend()->hide();
  connect(boxes, &QBoxPlotSeries::clicked, this, [this, levels, boxes](QBoxSet* set) {
    const int index = static_cast<int>(boxes->boxSets().indexOf(set));
    if (index < 0) return;
    QList<int> rows;
    for (const auto& p : m_distribution.pointsOfLevel(levels[static_cast<std::size_t>(index)])) rows << p.row;
    emit rowsSelected(rows);
  });
  connect(dots, &QScatterSeries::clicked, this, [this, rowsAt](const QPointF& clicked) {
    const auto it = std::min_element(rowsAt->begin(), rowsAt->end(), [&](const auto& a, const auto& b) {
      return QLineF(a.first, clicked).length() < QLineF(b.first, clicked).length();
    });
    if (it != rowsAt->end()) emit rowsSelected({it->second});
  });
  replaceChart(m_levels, chart);
}

void ChartsView::buildVersus() {
  m_versusPoints.clear();
  int failed = 0, unrecorded = 0, outside = 0;
  for (int row = 0; m_run && m_history && row < m_run->rowCount(); ++row) {
    const Candidate* c = m_run->candidate(row);
    const runs::MeasuredRun* measured = c ? m_history->latestOfRecorded(row) : nullptr;
    if (!measured) continue;
    const auto recorded = c->speedup();
    if (!measured->correct() || !measured->row.speedup || !(*measured->row.speedup > 0)) {
      ++failed;
    } else if (!recorded || !(*recorded > 0) || !std::isfinite(*recorded)) {
      ++unrecorded;
    } else {
      VersusPoint point{QPointF(*recorded, *measured->row.speedup), row, std::nullopt};
      if (measured->result && measured->result->timing && measured->result->timing->speedupCi95) {
        const auto& ci = *measured->result->timing->speedupCi95;
        if (ci.low > 0 && std::isfinite(ci.low) && std::isfinite(ci.high)) point.interval = {ci.low, ci.high};
      }
      m_versusPoints.push_back(point);
      outside += runs::disagrees(*measured->row.speedup, *recorded);
    }
  }
  QString title =
      tr("Recorded vs measured speedup (vs the reference) — %1")
          .arg(counted(static_cast<qsizetype>(m_versusPoints.size()), tr("candidate"), tr("candidates")));
  if (!m_versusPoints.empty())
    title += tr(", %1 outside ±%2%").arg(outside).arg(runs::kDisagreement * 100, 0, 'f', 0);
  QStringList notCharted;
  if (failed > 0) notCharted << tr("%1 failed or untimed here").arg(failed);
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
  for (QScatterSeries* dots : {agree, disagree}) {
    dots->setMarkerSize(9);
    dots->setBorderColor(dots->color().darker(140));
  }
  for (const auto& p : m_versusPoints) (runs::disagrees(p.at.y(), p.at.x()) ? disagree : agree)->append(p.at);
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
  for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{agree, disagree}) chart->addSeries(s);
  for (int i = 0; i < bars.size(); ++i) {
    if (i == 0) bars[i]->setName(tr("95% interval"));
    for (QLegendMarker* marker : chart->legend()->markers(bars[i])) marker->setVisible(i == 0);
  }
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  chart->legend()->setAlignment(Qt::AlignTop);
  for (QScatterSeries* dots : {agree, disagree}) {
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
          QToolTip::showText(QCursor::pos(),
                             tr("%1 %2: recorded %3, measured %4%5 — click to select")
                                 .arg(QString::fromStdString(task.key()),
                                      QString::fromStdString(m_run->candidate(p.row)->id),
                                      formatSpeedup(p.at.x()), formatSpeedup(p.at.y()), interval));
          return;
        }
    });
  }
  replaceChart(m_versus, chart);
}

void ChartsView::selectPoints(std::size_t first, std::size_t last) {
  const auto& points = m_distribution.points();
  QList<int> rows;
  for (std::size_t i = first; i <= last && i < points.size(); ++i) rows << points[i].row;
  emit rowsSelected(rows);
}

}  // namespace ks
