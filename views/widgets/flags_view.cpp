#include "views/widgets/flags_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "views/logic/counted.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_format.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/logic/runtime_evidence.h"
#include "views/item_models/flag_table_model.h"

namespace ks {

FlagsView::FlagsView(QWidget* parent)
    : QWidget(parent),
      m_model(new FlagTableModel(this)),
      m_view(new QTableView(this)),
      m_source(new QLabel(this)),
      m_empty(new QLabel(this)),
      m_stack(new QStackedWidget(this)) {
  m_view->setObjectName(QStringLiteral("flagsTable"));
  m_view->setModel(m_model);
  m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_view->setSelectionMode(QAbstractItemView::SingleSelection);
  m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_view->setWordWrap(false);
  m_view->verticalHeader()->hide();
  m_view->horizontalHeader()->setStretchLastSection(true);
  m_view->horizontalHeader()->setHighlightSections(false);
  connect(m_view, &QTableView::clicked, this, &FlagsView::activate);
  connect(m_view, &QTableView::activated, this, &FlagsView::activate);

  m_source->setObjectName(QStringLiteral("flagsSource"));
  m_source->setWordWrap(true);
  m_source->setStyleSheet(QStringLiteral("color: #57606a;"));
  m_empty->setAlignment(Qt::AlignCenter);
  m_empty->setWordWrap(true);
  m_empty->setStyleSheet(QStringLiteral("color: #57606a;"));
  auto* table = new QWidget(this);
  auto* tableLayout = new QVBoxLayout(table);
  tableLayout->setContentsMargins(0, 0, 0, 0);
  tableLayout->setSpacing(2);
  tableLayout->addWidget(m_source);
  tableLayout->addWidget(m_view, 1);
  m_stack->addWidget(table);
  m_stack->addWidget(m_empty);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_stack);
  showRow(nullptr, -1);
}

void FlagsView::setHistory(std::shared_ptr<const MeasuredHistory> history) {
  m_history = std::move(history);
  showRow(m_run, m_row);
}

void FlagsView::refreshMeasured() { showRow(m_run, m_row); }

void FlagsView::observe(const OpenRun* open) {
  connect(open, &OpenRun::opened, this, [this, open] { m_history = open->history(); });
  connect(open, &OpenRun::currentChanged, this, [this, open](int row) {
    m_history = open->history();
    showRow(open->run(), row);
  });
  connect(open, &OpenRun::flagsChanged, this, [this, open] {
    m_history = open->history();
    showRow(open->run(), open->currentRow());
  });
  connect(open, &OpenRun::historyChanged, this, [this, open] { setHistory(open->history()); });
  connect(open, &OpenRun::runAdded, this, [this, open](int row) {
    m_history = open->history();
    if (row == m_row) refreshMeasured();
  });
}

QString FlagsView::sourceText() const { return m_source->isHidden() ? QString() : m_source->text(); }

void FlagsView::showRow(std::shared_ptr<const LoadedRun> run, int row) {
  m_run = std::move(run);
  const bool valid = m_run && row >= 0 && row < m_run->rowCount();
  m_row = valid ? row : -1;
  std::vector<Flag> flags = valid ? m_run->flags(row) : std::vector<Flag>();
  const std::size_t staticCount = flags.size();
  RuntimeEvidence runtime = valid ? runtimeEvidence(m_history.get(), row) : RuntimeEvidence();
  flags.insert(flags.end(), std::make_move_iterator(runtime.flags.begin()),
               std::make_move_iterator(runtime.flags.end()));
  // Hacks first, then suspicious, then benign; measured before read from the code; the surest first.
  std::stable_sort(flags.begin(), flags.end(), [](const Flag& a, const Flag& b) {
    if (a.severity != b.severity) return a.severity < b.severity;
    if ((a.origin == "runtime") != (b.origin == "runtime")) return a.origin == "runtime";
    return a.confidence > b.confidence;
  });
  const std::size_t runtimeCount = flags.size() - staticCount;
  m_model->setFlags(std::move(flags), runtime.device);

  if (runtime.run) {
    QString text =
        tr("%1 read from the code · %2 measured by the newest re-run of the recorded program "
           "(%3, %4%5)")
            .arg(counted(static_cast<qsizetype>(staticCount), tr("static flag"), tr("static flags")),
                 counted(static_cast<qsizetype>(runtimeCount), tr("runtime flag"), tr("runtime flags")),
                 deviceText(*runtime.run), localTime(runtime.run->row.recordedAt),
                 runtime.run->row.id > 0 ? tr(", results row %1").arg(runtime.run->row.id) : QString());
    if (!runtime.skipped.empty())
      text += tr(" · %1 not shown: %2")
                  .arg(counted(static_cast<qsizetype>(runtime.skipped.size()), tr("runner flag"),
                               tr("runner flags")),
                       QString::fromStdString(runtime.skipped.front()));
    m_source->setText(text);
    m_source->show();
  } else {
    m_source->clear();
    m_source->hide();
  }

  if (m_model->rowCount() > 0) {
    for (int c = FlagTableModel::FamilyColumn; c < FlagTableModel::MessageColumn; ++c)
      m_view->resizeColumnToContents(c);
    // The message gets what it needs up to about 60 characters; the evidence takes the rest.
    m_view->resizeColumnToContents(FlagTableModel::MessageColumn);
    const int most = 60 * fontMetrics().averageCharWidth();
    if (m_view->columnWidth(FlagTableModel::MessageColumn) > most)
      m_view->setColumnWidth(FlagTableModel::MessageColumn, most);
    m_stack->setCurrentIndex(0);
    return;
  }
  const Candidate* c = valid ? m_run->candidate(row) : nullptr;
  if (!valid)
    m_empty->setText(tr("Select a candidate to see the flags raised on it."));
  else if (!m_run->flagsChecked())
    m_empty->setText(tr("No flags yet: the static checks have not finished."));
  else if (!c || !c->code)
    m_empty->setText(tr("No program recorded for %1, so nothing to check.")
                         .arg(QString::fromStdString(m_run->task(row).key())));
  else if (runtime.run)
    m_empty->setText(tr("No flags: the static checks found nothing suspicious in candidate %1 of %2, and its "
                        "newest re-run (%3) raised no runtime flag.")
                         .arg(QString::fromStdString(c->id), QString::fromStdString(m_run->task(row).key()),
                              deviceText(*runtime.run)));
  else
    m_empty->setText(tr("No flags: the static checks found nothing suspicious in candidate %1 of %2.")
                         .arg(QString::fromStdString(c->id), QString::fromStdString(m_run->task(row).key())));
  m_stack->setCurrentWidget(m_empty);
}

void FlagsView::activate(const QModelIndex& index) {
  if (!index.isValid()) return;
  const Flag& f = m_model->flag(index.row());
  if (!f.lines.empty()) emit lineRequested(f.lines.front());
}

}  // namespace ks
