#include "views/widgets/measurements_view.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "views/logic/loaded_run.h"
#include "views/logic/measured_format.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/logic/recorded_headline.h"
#include "views/logic/speedup_format.h"
#include "views/logic/speedup_trust.h"
#include "views/item_models/measurement_table_model.h"
#include "views/widgets/run_result_view.h"

namespace ks {
namespace {

// Where a claim comes from: "CUDA-L1", or the file's name.
QString sourceName(const RunFile& run) {
  if (run.format == "cuda-l1") return QStringLiteral("CUDA-L1");
  return QFileInfo(QString::fromStdString(run.path)).fileName();
}

}  // namespace

MeasurementsView::MeasurementsView(QWidget* parent)
    : QWidget(parent),
      m_headline(new QLabel(this)),
      m_model(new MeasurementTableModel(this)),
      m_table(new QTableView(this)),
      m_result(new RunResultView(this)) {
  setObjectName(QStringLiteral("measurementsView"));
  m_headline->setObjectName(QStringLiteral("measuredHeadline"));
  m_headline->setTextFormat(Qt::RichText);
  m_headline->setWordWrap(true);
  m_headline->setMargin(4);
  m_table->setObjectName(QStringLiteral("measurementTable"));
  m_table->setModel(m_model);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setAlternatingRowColors(true);
  m_table->setWordWrap(false);
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  m_table->horizontalHeader()->setStretchLastSection(true);
  m_table->horizontalHeader()->setHighlightSections(false);
  // The table's columns want width, the details height: side by side, in the window's bottom dock.
  auto* claims = new QWidget(this);
  auto* claimsLayout = new QVBoxLayout(claims);
  claimsLayout->setContentsMargins(0, 0, 0, 0);
  claimsLayout->setSpacing(4);
  claimsLayout->addWidget(m_headline);
  claimsLayout->addWidget(m_table, 1);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(claims);
  split->addWidget(m_result);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(split, 1);
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          &MeasurementsView::showSelected);
  connect(m_result, &RunResultView::lineRequested, this, &MeasurementsView::lineRequested);
  showRow(nullptr, nullptr, -1);
}

void MeasurementsView::showRow(std::shared_ptr<const LoadedRun> run,
                               std::shared_ptr<const MeasuredHistory> history, int row) {
  m_run = std::move(run);
  m_history = std::move(history);
  m_row = m_run && row >= 0 && row < m_run->rowCount() ? row : -1;
  if (m_run && m_run->seriesIndex(m_series) < 0) m_series = m_run->series().front();
  m_model->showRow(m_run, m_history, m_row);
  m_table->resizeColumnsToContents();
  updateHeadline();
  selectNewest();
}

void MeasurementsView::observe(const OpenRun* open) {
  connect(open, &OpenRun::currentChanged, this, [this, open](int row) {
    m_series = open->series();
    showRow(open->run(), open->history(), row);
  });
  connect(open, &OpenRun::seriesChanged, this, [this, open] { setSeries(open->series()); });
  connect(open, &OpenRun::historyChanged, this,
          [this, open] { showRow(open->run(), open->history(), open->currentRow()); });
  connect(open, &OpenRun::runAdded, this, [this, open](int row) {
    if (row == m_row) showRow(open->run(), open->history(), row);  // the newest is selected
  });
}

void MeasurementsView::refresh() {
  m_model->refresh();
  m_table->resizeColumnsToContents();
  updateHeadline();
  selectNewest();
}

void MeasurementsView::setSeries(const SpeedupSeries& series) {
  m_series = series;
  updateHeadline();
}

QString MeasurementsView::headline() const { return m_headline->text(); }

void MeasurementsView::updateHeadline() {
  const Candidate* c = m_row < 0 ? nullptr : m_run->candidate(m_row);
  if (!c) {
    m_headline->setText(m_row < 0 ? tr("Select a candidate to compare its recorded and measured speedups.")
                                  : tr("This task has no candidate to measure."));
    return;
  }
  QStringList parts;
  {
    QStringList where;
    if (const Measurement* m = recordedMeasurement(*c, m_series); m && !m->device.empty())
      where << QString::fromStdString(m->device).toHtmlEscaped();
    where << sourceName(m_run->run()).toHtmlEscaped();
    // The claim in the shown series, by the one rule (speedup_trust.h), then what else the file records.
    parts << recordedHeadlineHtml(*c, m_series, speedupTrust(*m_run, m_history.get(), m_row),
                                  where.join(QStringLiteral(", ")));
  }
  const runs::MeasuredRun* latest = m_history ? m_history->latestOfRecorded(m_row) : nullptr;
  if (!latest) {
    parts << (c->code ? tr("not measured here yet: Run (F9) re-times it") : tr("no program to measure"));
  } else {
    QStringList where;
    if (const QString host = hostText(*latest); !host.isEmpty()) where << host;
    where << QString::fromStdString(latest->result ? latest->result->device : latest->row.device)
                 .toHtmlEscaped();
    where << localTime(latest->row.recordedAt);
    const QString value =
        latest->row.speedup ? speedupWithSpread(*latest) : outcomeText(*latest).toHtmlEscaped();
    QString colour;
    switch (m_history->agreement(m_row, c->speedup())) {
      case MeasuredHistory::Agreement::Failed:
        colour = QStringLiteral("#cf222e");
        break;
      case MeasuredHistory::Agreement::Disagrees:
        colour = QStringLiteral("#9a6700");
        break;
      default:
        colour = QStringLiteral("#1a7f37");
        break;
    }
    // A caught hack or a fallback says so first, its number struck through (speedup_trust.h).
    const std::string verdict = trustHeadline(speedupTrust(*m_run, m_history.get(), m_row));
    const QString shown = verdict.empty()
                              ? value
                              : QStringLiteral("%1 · <s>%2</s>").arg(QString::fromStdString(verdict), value);
    if (!verdict.empty()) colour = QStringLiteral("#cf222e");
    parts << tr("measured <b style='color: %1'>%2</b> (%3)")
                 .arg(colour, shown, where.join(QStringLiteral(", ")));
  }
  m_headline->setText(parts.join(QStringLiteral(" · ")));
}

void MeasurementsView::selectNewest() {
  const int newest = m_model->claimCount();
  if (newest < m_model->rowCount())
    m_table->setCurrentIndex(m_model->index(newest, 0));
  else
    showSelected();
}

void MeasurementsView::showSelected() {
  const QModelIndex current = m_table->currentIndex();
  const MeasuredHistory::Entry* e = current.isValid() ? m_model->entry(current.row()) : nullptr;
  if (e) {
    const Candidate* c = m_run ? m_run->candidate(m_row) : nullptr;
    m_result->showRun(
        &e->run, e->recordedProgram, {},
        repairedBesideHtml(e->run, m_history ? m_history->fallbackBefore(m_row, e->run) : nullptr,
                           c ? c->speedup() : std::nullopt) +
            gemmBaselinesHtml(e->run, c) +  // GEMM tasks: per baseline and timing method
            cudaL1Html(e->run, c));         // Python tasks: CUDA-L1's own method beside KernelScope's
  } else if (current.isValid()) {
    m_result->showRun(nullptr, false,
                      tr("A claim read from the file: KernelScope has no details of how it was "
                         "measured. Run (F9) measures the candidate here."));
  } else {
    m_result->showRun(
        nullptr, false,
        m_row >= 0 && m_run->candidate(m_row) && m_run->candidate(m_row)->code
            ? tr("No re-run of this candidate yet. Run (F9) builds, checks and times it on this "
                 "machine; the result is kept in the results history.")
            : tr("Nothing to show."));
  }
}

}  // namespace ks
