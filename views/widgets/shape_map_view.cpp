#include "views/widgets/shape_map_view.h"

#include <QComboBox>
#include <QDataStream>
#include <QHBoxLayout>
#include <QIODevice>
#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>

#include "views/charts/chart_export.h"
#include "views/logic/counted.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/logic/speedup_format.h"
#include "views/logic/stage_timer.h"
#include "views/widgets/shape_map_canvas.h"
#include "views/widgets/shape_map_legend.h"

namespace ks {
namespace {

constexpr int kShapeMapStateVersion = 1;
const QString kAllK = QStringLiteral("all");

QString q(const std::string& s) { return QString::fromStdString(s); }

QString series(const QString& baseline, const QString& mode) {
  return mode.isEmpty() ? baseline : QStringLiteral("%1 (%2)").arg(baseline, mode);
}

}  // namespace

ShapeMapView::ShapeMapView(QWidget* parent)
    : QWidget(parent),
      m_source(new QComboBox(this)),
      m_baseline(new QComboBox(this)),
      m_mode(new QComboBox(this)),
      m_k(new QComboBox(this)),
      m_canvas(new ShapeMapCanvas(this)),
      m_legend(new ShapeMapLegend(this)),
      m_note(new QLabel(this)) {
  setObjectName(QStringLiteral("shapeMapView"));
  m_source->setObjectName(QStringLiteral("shapeSource"));
  m_baseline->setObjectName(QStringLiteral("shapeBaseline"));
  m_mode->setObjectName(QStringLiteral("shapeMode"));
  m_k->setObjectName(QStringLiteral("shapeK"));
  m_source->addItem(tr("Recorded"));
  m_source->addItem(tr("Measured here"));
  m_source->setToolTip(
      tr("Recorded: the speedups the release claims. Measured here: the newest run of each "
         "kernel on this machine, against the task's reference (torch.matmul)"));
  m_baseline->setToolTip(tr("The baseline the speedup is over, as the results files name it"));
  m_mode->setToolTip(
      tr("How the release timed it (CUDA-L2: offline, calls back to back; server, calls at a "
         "target rate)"));
  m_k->setToolTip(tr("Every K side by side, or one K large"));
  m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_note->setObjectName(QStringLiteral("shapeNote"));
  m_note->setWordWrap(true);
  m_note->setTextFormat(Qt::RichText);
  m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 4, 6, 0);
  const auto label = [this](const QString& text, QWidget* buddy) {
    auto* l = new QLabel(text, this);
    l->setBuddy(buddy);
    return l;
  };
  bar->addWidget(label(tr("&Speedup:"), m_source));
  bar->addWidget(m_source);
  bar->addSpacing(8);
  bar->addWidget(label(tr("over &baseline"), m_baseline));
  bar->addWidget(m_baseline);
  bar->addWidget(label(tr("m&ode"), m_mode));
  bar->addWidget(m_mode);
  bar->addSpacing(8);
  bar->addWidget(label(tr("&K"), m_k));
  bar->addWidget(m_k);
  bar->addStretch(1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 4);
  layout->setSpacing(4);
  layout->addLayout(bar);
  layout->addWidget(m_note);
  layout->addWidget(m_canvas, 1);
  addChartExport(m_canvas, QStringLiteral("shape-map"));
  auto* legendRow = new QHBoxLayout;
  legendRow->setContentsMargins(6, 0, 6, 0);
  legendRow->addWidget(m_legend);
  layout->addLayout(legendRow);

  m_canvas->setToolTipText([this](const ShapeMap::Cell& c) { return toolTip(c); });
  connect(m_canvas, &ShapeMapCanvas::rowClicked, this, &ShapeMapView::rowSelected);
  for (QComboBox* box : {m_source, m_baseline, m_mode, m_k})
    connect(box, &QComboBox::currentIndexChanged, this, [this, box] {
      if (m_filling) return;
      // A choice the user makes is the one to keep (and to restore next time).
      if (box == m_baseline) m_wantBaseline = m_baseline->currentData().toString();
      if (box == m_mode) m_wantMode = m_mode->currentData().toString();
      if (box == m_k) m_wantK = m_k->currentData().toString();
      if (box == m_source) m_wantSource = m_source->currentIndex();
      rebuild();
    });
  fillChoices();
  rebuild();
}

void ShapeMapView::observe(const OpenRun* open) {
  m_open = open;
  connect(open, &OpenRun::opened, this, [this] {
    const StageTimer timer("view: shape map");
    fillChoices();
    rebuild();
  });
  for (auto signal : {&OpenRun::flagsChanged, &OpenRun::historyChanged})
    connect(open, signal, this, &ShapeMapView::rebuild);
  connect(open, &OpenRun::runAdded, this, &ShapeMapView::rebuild);
  connect(open, &OpenRun::currentChanged, m_canvas, &ShapeMapCanvas::setCurrentRow);
  // The series chosen in the task list or the charts, when the GEMM tasks record it, is the map's too.
  connect(open, &OpenRun::seriesChanged, this, [this, open] {
    const SpeedupSeries& chosen = open->series();
    if (std::find(m_series.begin(), m_series.end(), chosen) == m_series.end()) return;
    m_wantBaseline = q(chosen.baseline);
    m_wantMode = q(chosen.mode);
    fillChoices();
    rebuild();
  });
}

void ShapeMapView::fillChoices() {
  m_filling = true;
  const std::shared_ptr<const LoadedRun> run = m_open ? m_open->run() : nullptr;
  m_hasGemm = run && ks::hasGemmTasks(*run);
  m_series = m_hasGemm ? gemmSpeedupSeries(*run) : std::vector<SpeedupSeries>{};
  const auto refill = [](QComboBox* box, const QList<std::pair<QString, QString>>& items,
                         const QString& want) {
    box->clear();
    for (const auto& [text, data] : items) box->addItem(text, data);
    const int at = box->findData(want);
    box->setCurrentIndex(at >= 0 ? at : 0);
  };
  QList<std::pair<QString, QString>> baselines, modes, ks;
  for (const std::string& b : baselinesOf(m_series)) baselines.append({q(b), q(b)});
  for (const std::string& m : modesOf(m_series)) modes.append({m.empty() ? tr("(none)") : q(m), q(m)});
  ks.append({tr("All K"), kAllK});
  if (m_hasGemm) {
    const ShapeMap shapes(*run, nullptr, {}, {}, ShapeMap::Source::Recorded);
    for (std::int64_t k : shapes.ks()) ks.append({QString::number(k), QString::number(k)});
  }
  refill(m_baseline, baselines, m_wantBaseline);
  refill(m_mode, modes, m_wantMode);
  refill(m_k, ks, m_wantK);
  m_source->setCurrentIndex(m_wantSource == 1 ? 1 : 0);
  for (QComboBox* box : {m_source, m_baseline, m_mode, m_k}) box->setEnabled(m_hasGemm);
  m_filling = false;
}

void ShapeMapView::rebuild() {
  const std::shared_ptr<const LoadedRun> run = m_open ? m_open->run() : nullptr;
  if (!m_hasGemm || !run) {
    m_map.reset();
    m_canvas->setMap(nullptr, {});
    m_note->setText(
        run ? tr("This run has no GEMM tasks: the shape map shows matrix-multiply releases (CUDA-L2) "
                 "by M, N and K.")
            : tr("Open a CUDA-L2 release (a folder with kernels/ and eval_results/) to see its "
                 "speedups by matrix shape."));
    m_legend->hide();
    return;
  }
  m_legend->show();
  const bool measured = m_source->currentIndex() == 1;
  m_baseline->setEnabled(!measured && m_baseline->count() > 0);
  m_mode->setEnabled(!measured && m_mode->count() > 1);
  const QString baseline = m_baseline->currentData().toString(), mode = m_mode->currentData().toString();
  auto map = std::make_shared<const ShapeMap>(
      *run, m_open->history().get(), baseline.toStdString(), mode.toStdString(),
      measured ? ShapeMap::Source::Measured : ShapeMap::Source::Recorded);
  std::vector<std::int64_t> ks = map->ks();
  const QString k = m_k->currentData().toString();
  if (k != kAllK && !k.isEmpty()) ks = {k.toLongLong()};
  m_map = map;
  m_canvas->setMap(map, ks);
  m_canvas->setCurrentRow(m_open->currentRow());

  const int cells = static_cast<int>(map->cells().size());
  QString note =
      measured ? tr("<b>Measured here</b> against each task's reference (torch.matmul as this "
                    "machine runs it), newest run of the recorded kernel")
               : tr("<b>Recorded</b> speedup over <b>%1</b>").arg(series(baseline, mode).toHtmlEscaped());
  if (ks.size() == 1 && map->ks().size() > 1)
    note +=
        tr(" · %1 of K = %2 (%3 in all) · M down, N across")
            .arg(counted(static_cast<qsizetype>(map->cellsOfK(ks.front()).size()), tr("shape"), tr("shapes")))
            .arg(ks.front())
            .arg(cells);
  else
    note += tr(" · %1 · M down, N across").arg(counted(cells, tr("shape"), tr("shapes")));
  if (map->emptyCount() > 0) note += tr(" · %1 without a number (empty)").arg(map->emptyCount());
  if (map->untrustedCount() > 0)
    note +=
        tr(" · <span style='color:#8a3b00'>%1 not shown as a win (caught hack or fallback: hatched)</span>")
            .arg(map->untrustedCount());
  if (measured && map->emptyCount() == cells)
    note += tr("<br>Nothing re-timed yet: run kernels (F9, or Run All Visible) on a GPU to fill the map.");
  m_note->setText(note);
}

QString ShapeMapView::toolTip(const ShapeMap::Cell& c) const {
  const std::shared_ptr<const LoadedRun> run = m_open ? m_open->run() : nullptr;
  QString text = tr("<b>M %1 × N %2 × K %3</b>").arg(c.m).arg(c.n).arg(c.k);
  if (run && c.row >= 0 && c.row < run->rowCount())
    text += QStringLiteral("<br>%1").arg(q(run->task(c.row).key()).toHtmlEscaped());
  const QString over =
      series(m_baseline->currentData().toString(), m_mode->currentData().toString()).toHtmlEscaped();
  const bool measured = m_map && m_map->source() == ShapeMap::Source::Measured;
  const QString recorded = c.recorded ? tr("recorded: %1 over %2").arg(formatSpeedup(*c.recorded), over)
                                      : tr("recorded: none over %1").arg(over);
  const QString here = c.measured
                           ? tr("measured here: %1 over the task's reference").arg(formatSpeedup(*c.measured))
                       : !c.measuredProblem.empty()
                           ? tr("measured here: no number (%1)").arg(q(c.measuredProblem).toHtmlEscaped())
                           : tr("measured here: not run");
  // The map's own number first, in bold.
  text += QStringLiteral("<br><b>%1</b><br>%2").arg(measured ? here : recorded, measured ? recorded : here);
  if (!c.trusted) {
    text += tr("<br><span style='color:#8a3b00'>Not shown as a win:</span>");
    for (const std::string& reason : c.distrust)
      text += QStringLiteral("<br>· %1").arg(q(reason).toHtmlEscaped());
  }
  text += tr("<br><i>Click to select the task</i>");
  return text;
}

QByteArray ShapeMapView::saveState() const {
  QByteArray state;
  QDataStream out(&state, QIODevice::WriteOnly);
  out << kShapeMapStateVersion << m_wantSource << m_wantBaseline << m_wantMode << m_wantK;
  return state;
}

void ShapeMapView::restoreState(const QByteArray& state) {
  QDataStream in(state);
  int version = 0;
  in >> version;
  if (version != kShapeMapStateVersion) return;
  in >> m_wantSource >> m_wantBaseline >> m_wantMode >> m_wantK;
  if (in.status() != QDataStream::Ok) {
    resetChoices();
    return;
  }
  fillChoices();
  rebuild();
}

void ShapeMapView::resetChoices() {
  m_wantSource = 0;
  m_wantBaseline.clear();
  m_wantMode.clear();
  m_wantK = kAllK;
  fillChoices();
  rebuild();
}

}  // namespace ks
