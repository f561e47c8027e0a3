#include "views/charts/best_by_round_chart.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "views/charts/chart_style.h"

namespace ks {

BestByRoundChart::BestByRoundChart(QWidget* parent)
    : QWidget(parent), m_view(new QChartView(this)), m_key(new QLabel(this)), m_note(new QLabel(this)) {
  setObjectName(QStringLiteral("bestByRound"));
  m_key->setObjectName(QStringLiteral("bestByRoundKey"));
  m_key->setWordWrap(true);
  m_key->setAlignment(Qt::AlignCenter);
  m_key->setTextFormat(Qt::RichText);
  m_view->setRenderHint(QPainter::Antialiasing);
  m_note->setObjectName(QStringLiteral("bestByRoundNote"));
  m_note->setWordWrap(true);
  m_note->setTextFormat(Qt::RichText);
  m_note->setAlignment(Qt::AlignCenter);
  m_note->setStyleSheet(QStringLiteral("color: #57606a;"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 2);
  layout->setSpacing(0);
  layout->addWidget(m_view, 1);
  layout->addWidget(m_key);
  layout->addWidget(m_note, 1);
  setRounds({});
}

void BestByRoundChart::setRounds(std::vector<RoundBest> rounds, const QString& why) {
  m_rounds = std::move(rounds);
  QChart* chart = chart::makeChart(QString());  // the title is in m_key, which wraps
  chart->setMargins(QMargins(2, 2, 2, 2));
  const bool any = std::any_of(m_rounds.begin(), m_rounds.end(), [](const RoundBest& r) { return r.best; });
  const auto show = [this](QChart* next) {  // the view releases the chart it had
    QChart* old = m_view->chart();
    m_view->setChart(next);
    delete old;
  };
  if (m_rounds.empty() || !any) {
    m_x = nullptr;
    m_y = nullptr;
    show(chart);
    m_view->hide();
    m_key->hide();
    m_note->setText(QStringLiteral("<b>%1</b><br>").arg(tr("Best so far by round")) +
                    (!why.isEmpty() ? why
                     : m_rounds.empty()
                         ? tr("No rounds to chart.")
                         : tr("No candidate of this search has a trusted number yet: the best-so-far chart "
                              "fills in once candidates are measured."))
                        .toHtmlEscaped());
    m_note->show();
    return;
  }
  m_note->hide();
  m_view->show();
  m_key->show();
  auto* soFar = new QLineSeries;
  soFar->setName(tr("best so far"));
  soFar->setPen(QPen(chart::kFaster, 2));
  auto* best = new QScatterSeries;
  best->setName(m_rounds.size() <= chart::kMaxMarkers ? tr("round's best")
                                                      : tr("round's best, when a new best"));
  best->setMarkerSize(m_rounds.size() > 200 ? 4 : 8);
  best->setColor(chart::kFaster.lighter(130));
  best->setBorderColor(chart::kFaster);
  double lo = 1, hi = 1;
  std::optional<double> last;
  for (const RoundBest& r : m_rounds) {
    if (r.bestSoFar) {
      if (last && *last != *r.bestSoFar) soFar->append(r.round, *last);  // a step, not a slope
      soFar->append(r.round, *r.bestSoFar);
      last = r.bestSoFar;
      hi = std::max(hi, *r.bestSoFar);
    }
    // Past chart::kMaxMarkers rounds (an RL run), only the rounds that set a new best get a marker.
    const bool record = r.best && r.bestSoFar && *r.best == *r.bestSoFar && r.bestRow == r.bestSoFarRow;
    if (r.best && (m_rounds.size() <= chart::kMaxMarkers || record)) {
      best->append(r.round, *r.best);
      lo = std::min(lo, *r.best);
      hi = std::max(hi, *r.best);
    }
  }
  chart->addSeries(soFar);
  chart->addSeries(best);
  auto* x = new QValueAxis;
  // The axes carry no titles: the key names them, and a title took the plot's height in this corner.
  // Ticks on whole rounds (a fixed tick count put them on half rounds, labelled "0 0 1 2 3").
  x->setLabelFormat(QStringLiteral("%d"));
  const int first = m_rounds.front().round, lastRound = m_rounds.back().round;
  x->setRange(first - 0.5, lastRound + 0.5);
  x->setTickType(QValueAxis::TicksDynamic);
  x->setTickAnchor(first);
  x->setTickInterval(1);  // until spaceTicks knows the plot's width
  QLogValueAxis* y = chart::makeLogAxis(lo, hi, QString());
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (QAbstractSeries* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  // The key in words under the plot, in the series' colours (a chart legend's entries ran into each other
  // in this column).
  chart->legend()->hide();
  const QString blue = chart::kFaster.name();
  m_key->setText(tr("<b>Best so far by round</b> (speedup, log scale): "
                    "<span style='color:%1'>━</span>&nbsp;%2 <span style='color:%1'>●</span>&nbsp;%3")
                     .arg(blue, soFar->name().toHtmlEscaped(), best->name().toHtmlEscaped()));
  m_x = x;
  m_y = y;
  connect(chart, &QChart::plotAreaChanged, this, &BestByRoundChart::spaceTicks);
  connect(best, &QScatterSeries::clicked, this, [this](const QPointF& point) {
    for (const RoundBest& r : m_rounds)
      if (r.round == qRound(point.x()) && r.bestRow >= 0) return emit rowSelected(r.bestRow);
  });
  show(chart);
  spaceTicks();
}

void BestByRoundChart::spaceTicks() {
  if (!m_x || !m_y) return;
  const QRectF plot = m_view->chart()->plotArea();
  const QFontMetrics fm(m_y->labelsFont());
  // As many labels as fit the plot with a label's height (width for the rounds) of space between them:
  // every octave when there is room, every second or fourth when the corner is small.
  const int rows = std::max(2, static_cast<int>(plot.height() / (2 * fm.height())));
  const double octaves = std::log2(m_y->max() / m_y->min());
  int step = 1;
  while (octaves / step + 1 > rows && step < 64) step *= 2;
  if (m_y->base() != std::exp2(step)) {
    m_y->setBase(std::exp2(step));
    m_y->setMinorTickCount(step > 1 ? 0 : -1);  // a wide base's minor ticks would fill the plot with lines
  }
  const int rounds = static_cast<int>(std::lround(m_x->max() - m_x->min()));
  const int widest = fm.horizontalAdvance(QString::number(static_cast<int>(m_x->max())));
  const int columns = std::max(1, static_cast<int>(plot.width() / (2 * widest + 8)));
  const double interval = std::max(1.0, std::ceil(static_cast<double>(rounds) / columns));
  if (m_x->tickInterval() != interval) m_x->setTickInterval(interval);
}

}  // namespace ks
