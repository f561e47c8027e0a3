#include "views/charts/roofline_view.h"

#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/model/task.h"
#include "views/charts/chart_export.h"
#include "views/charts/chart_style.h"
#include "views/logic/counted.h"
#include "views/logic/gpu_ceilings.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/logic/stage_timer.h"

namespace ks {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QLogValueAxis* logAxis(double lo, double hi, const QString& title) {
  auto* axis = new QLogValueAxis;
  axis->setBase(10);
  axis->setLabelFormat(QStringLiteral("%g"));
  axis->setTitleText(title);
  axis->setMinorTickCount(8);
  axis->setRange(std::pow(10, std::floor(std::log10(lo))), std::pow(10, std::ceil(std::log10(hi))));
  return axis;
}

}  // namespace

RooflineView::RooflineView(QWidget* parent)
    : QWidget(parent), m_view(new QChartView(this)), m_note(new QLabel(this)) {
  setObjectName(QStringLiteral("rooflineView"));
  m_view->setObjectName(QStringLiteral("rooflineChart"));
  m_view->setRenderHint(QPainter::Antialiasing);
  addChartExport(m_view, QStringLiteral("roofline"));
  m_note->setObjectName(QStringLiteral("rooflineNote"));
  m_note->setWordWrap(true);
  m_note->setTextFormat(Qt::RichText);
  m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->addWidget(m_note);
  layout->addWidget(m_view, 1);
  rebuild();
}

void RooflineView::observe(const OpenRun* open) {
  m_open = open;
  for (auto signal : {&OpenRun::opened, &OpenRun::flagsChanged, &OpenRun::historyChanged})
    connect(open, signal, this, &RooflineView::rebuild);
  connect(open, &OpenRun::runAdded, this, &RooflineView::rebuild);
  connect(open, &OpenRun::currentChanged, this, &RooflineView::markCurrent);
}

void RooflineView::rebuild() {
  const StageTimer timer("view: roofline");
  const std::shared_ptr<const LoadedRun> run = m_open ? m_open->run() : nullptr;
  m_roofline = run ? buildRoofline(*run, m_open->history().get()) : Roofline{};
  m_current = nullptr;
  const Roofline& r = m_roofline;
  QChart* chart =
      chart::makeChart(r.gemmTasks > 0 ? tr("Roofline — %1 timed of %2")
                                             .arg(r.timedTasks)
                                             .arg(counted(r.gemmTasks, tr("GEMM task"), tr("GEMM tasks")))
                                       : tr("Roofline"));
  QChart* old = m_view->chart();
  m_view->setChart(chart);
  delete old;
  if (r.gemmTasks == 0) {
    m_note->setText(run ? tr("This run has no GEMM tasks: the roofline places matrix multiplies (CUDA-L2) by "
                             "arithmetic intensity and achieved TFLOP/s.")
                        : tr("Open a CUDA-L2 release to place its kernels on the GPU's roofline."));
    return;
  }

  // The axes span every GEMM shape's intensity, timed or not, and the GPU's ceiling.
  double xlo = INFINITY, xhi = 0;
  for (const Task& t : run->run().tasks)
    if (t.gemm) {
      const double i = arithmeticIntensity(*t.gemm);
      xlo = std::min(xlo, i);
      xhi = std::max(xhi, i);
    }
  double ylo = INFINITY, yhi = 0;
  for (const RooflinePoint& p : r.points) {
    ylo = std::min(ylo, p.tflops);
    yhi = std::max(yhi, p.tflops);
  }
  const GpuCeilings* ceil = r.ceilings;
  const double peak = ceil ? ceil->tensorTflops(r.accumulatorType) : 0;
  if (ceil) {
    yhi = std::max(yhi, peak * 1.5);
    ylo = std::min(ylo, ceil->attainableTflops(xlo, r.accumulatorType) / 2);
  }
  if (!(yhi > 0)) yhi = 1000;
  if (!std::isfinite(ylo) || !(ylo > 0)) ylo = yhi / 1e4;
  auto* x = logAxis(xlo / 1.5, xhi * 1.5,
                    tr("arithmetic intensity (FLOP/byte: 2·M·N·K over A, B read and C written)"));
  auto* y = logAxis(ylo, yhi, tr("achieved TFLOP/s (2·M·N·K / time)"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  const auto attach = [&](QAbstractSeries* s) {
    chart->addSeries(s);
    s->attachAxis(x);
    s->attachAxis(y);
  };

  if (ceil) {
    auto* roof = new QLineSeries;
    const double ridge = ceil->ridge(r.accumulatorType);
    roof->setName(tr("%1 roof: %2 TB/s, %3 TFLOP/s dense 16-bit tensor (%4 accumulate)")
                      .arg(q(ceil->name))
                      .arg(ceil->bandwidthTBs, 0, 'g', 4)
                      .arg(peak, 0, 'g', 4)
                      .arg(q(r.accumulatorType.empty() ? std::string("fp32") : r.accumulatorType)));
    const double left = x->min(), right = x->max();
    if (ridge > left) *roof << QPointF(left, ceil->bandwidthTBs * left);
    *roof << QPointF(std::clamp(ridge, left, right),
                     ceil->attainableTflops(std::clamp(ridge, left, right), r.accumulatorType))
          << QPointF(right, ceil->attainableTflops(right, r.accumulatorType));
    roof->setPen(QPen(QColor(0x30, 0x30, 0x30), 2));
    attach(roof);
    connect(roof, &QLineSeries::hovered, this, [ceil](const QPointF&, bool on) {
      if (on)
        QToolTip::showText(QCursor::pos(), tr("Ceilings of the %1 — %2").arg(q(ceil->name), q(ceil->source)));
      else
        QToolTip::hideText();
    });
  }

  auto* kernels = new QScatterSeries;
  kernels->setName(tr("kernel (measured)"));
  kernels->setColor(chart::kFaster);
  auto* untrusted = new QScatterSeries;
  untrusted->setName(tr("kernel: caught hack or fallback"));
  untrusted->setColor(QColor(0x9e, 0x9e, 0x9e));
  auto* references = new QScatterSeries;
  references->setName(tr("reference it was timed against"));
  references->setColor(QColor(0xd4, 0x8a, 0x00));
  references->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
  for (QScatterSeries* s : {kernels, untrusted, references}) {
    s->setMarkerSize(8);
    s->setBorderColor(s->color().darker(140));
  }
  for (const RooflinePoint& p : r.points) {
    QScatterSeries* s = p.program == RooflinePoint::Program::Reference ? references
                        : p.trusted                                    ? kernels
                                                                       : untrusted;
    s->append(p.intensity, p.tflops);
  }
  m_current = new QScatterSeries;
  m_current->setName(tr("selected task"));
  m_current->setMarkerSize(16);
  m_current->setColor(Qt::transparent);
  m_current->setBorderColor(Qt::black);
  for (QScatterSeries* s : {references, kernels, untrusted, m_current}) attach(s);
  for (QLegendMarker* marker : chart->legend()->markers(m_current)) marker->setVisible(false);
  for (QScatterSeries* s : {kernels, untrusted, references}) {
    if (s->count() == 0)
      for (QLegendMarker* marker : chart->legend()->markers(s)) marker->setVisible(false);
    connect(s, &QScatterSeries::clicked, this, [this](const QPointF& at) {
      const auto nearest = std::min_element(m_roofline.points.begin(), m_roofline.points.end(),
                                            [&](const RooflinePoint& a, const RooflinePoint& b) {
                                              const auto d = [&](const RooflinePoint& p) {
                                                return std::hypot(std::log10(p.intensity / at.x()),
                                                                  std::log10(p.tflops / at.y()));
                                              };
                                              return d(a) < d(b);
                                            });
      if (nearest != m_roofline.points.end()) emit rowSelected(nearest->row);
    });
    connect(s, &QScatterSeries::hovered, this, [this, run](const QPointF& at, bool on) {
      if (!on) return QToolTip::hideText();
      for (const RooflinePoint& p : m_roofline.points) {
        if (std::abs(std::log10(p.intensity / at.x())) > 1e-9 ||
            std::abs(std::log10(p.tflops / at.y())) > 1e-9)
          continue;
        const Task& task = run->task(p.row);
        QString text =
            tr("<b>%1</b><br>M %2 × N %3 × K %4<br>%5: %6 ms → %7 TFLOP/s<br>%8 FLOP/byte · timed on %9")
                .arg(q(task.key()).toHtmlEscaped())
                .arg(task.gemm->m)
                .arg(task.gemm->n)
                .arg(task.gemm->k)
                .arg(p.program == RooflinePoint::Program::Reference ? tr("reference") : tr("kernel"))
                .arg(p.milliseconds, 0, 'g', 4)
                .arg(p.tflops, 0, 'f', 1)
                .arg(p.intensity, 0, 'f', 1)
                .arg(q(p.device).toHtmlEscaped());
        if (!p.trusted)
          for (const std::string& reason : p.distrust)
            text +=
                QStringLiteral("<br><span style='color:#8a3b00'>· %1</span>").arg(q(reason).toHtmlEscaped());
        QToolTip::showText(QCursor::pos(), text);
        return;
      }
    });
  }
  chart->legend()->setAlignment(Qt::AlignTop);

  QString note;
  if (!ceil)
    note = tr("No ceilings for GPU \"%1\" (gpu_ceilings lists H100, A100, RTX 3090). ")
               .arg(q(r.gpu).toHtmlEscaped());
  if (r.points.empty())
    note +=
        tr("<b>Recorded results give speedups, not times: re-time shapes to place them</b> (Run, F9, on a "
           "GPU). %1 recorded only; the line is the %2 roofline.")
            .arg(counted(r.recordedOnly, tr("shape is"), tr("shapes are")), ceil ? q(ceil->name) : q(r.gpu));
  else
    note += tr("%1 placed by the time measured here; %2 recorded only (speedups carry no time).")
                .arg(counted(r.timedTasks, tr("shape"), tr("shapes")))
                .arg(r.recordedOnly);
  m_note->setText(note);
  markCurrent(m_open->currentRow());
}

void RooflineView::markCurrent(int row) {
  if (!m_current) return;
  m_current->clear();
  for (const RooflinePoint& p : m_roofline.points)
    if (p.row == row) m_current->append(p.intensity, p.tflops);
}

}  // namespace ks
