#include "views/widgets/task_table.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelection>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

#include "core/flags/flag_families.h"
#include "views/logic/counted.h"
#include "views/logic/open_run.h"
#include "views/logic/stage_timer.h"
#include "views/logic/task_label.h"
#include "views/item_models/candidate_filter_proxy.h"
#include "views/item_models/candidate_table_model.h"

namespace ks {
namespace {

constexpr int kAnyFlag = -3;
constexpr int kFlagged = -2;
constexpr int kUnflagged = -1;

QDoubleSpinBox* makeBoundSpin(const QString& objectName, QWidget* parent) {
  auto* spin = new QDoubleSpinBox(parent);
  spin->setObjectName(objectName);
  spin->setRange(0, 1e6);
  spin->setDecimals(2);
  spin->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  spin->setSpecialValueText(QObject::tr("any"));
  spin->setSuffix(QStringLiteral("×"));
  spin->setAccelerated(true);
  return spin;
}

}  // namespace

TaskTable::TaskTable(QWidget* parent)
    : QWidget(parent),
      m_model(new CandidateTableModel(this)),
      m_proxy(new CandidateFilterProxy(m_model, this)),
      m_view(new QTableView(this)) {
  m_view->setObjectName(QStringLiteral("taskView"));
  m_view->setModel(m_proxy);
  m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
  m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_view->setAlternatingRowColors(true);
  m_view->setWordWrap(false);
  m_view->setTextElideMode(Qt::ElideRight);
  m_view->setSortingEnabled(true);
  m_view->sortByColumn(CandidateTableModel::TaskColumn, Qt::AscendingOrder);
  // Fixed row heights: a 100 000-row table never measures its rows.
  m_view->verticalHeader()->hide();
  m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  m_view->horizontalHeader()->setHighlightSections(false);
  m_view->horizontalHeader()->setSectionsMovable(true);
  m_view->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
  m_view->horizontalHeader()->setToolTip(tr("Right-click to show or hide columns"));
  connect(m_view->horizontalHeader(), &QWidget::customContextMenuRequested, this, &TaskTable::showHeaderMenu);
  connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            m_shownRow = current.isValid() ? m_proxy->mapToSource(current).row() : -1;
            emit currentRowChanged(m_shownRow);
          });
  connect(m_proxy, &QAbstractItemModel::rowsInserted, this, [this] { emit shownCountChanged(shownCount()); });
  connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, [this] { emit shownCountChanged(shownCount()); });
  connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] { emit shownCountChanged(shownCount()); });
  connect(m_proxy, &QAbstractItemModel::layoutChanged, this, [this] {
    followFilteredOutCurrent();
    emit shownCountChanged(shownCount());
  });

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(4);
  buildFilterBar();
  layout->addWidget(m_view, 1);
  setFocusProxy(m_view);
}

void TaskTable::buildFilterBar() {
  m_text = new QLineEdit(this);
  m_text->setObjectName(QStringLiteral("filterText"));
  m_text->setPlaceholderText(tr("Filter by task, name, candidate or flag (Ctrl+F)"));
  m_text->setClearButtonEnabled(true);
  connect(m_text, &QLineEdit::textChanged, this, &TaskTable::applyFilters);

  m_level = new QComboBox(this);
  m_level->setObjectName(QStringLiteral("filterLevel"));
  m_level->setToolTip(tr("Show one KernelBench level"));
  m_flags = new QComboBox(this);
  m_flags->setObjectName(QStringLiteral("filterFlags"));
  m_flags->setToolTip(
      tr("Show candidates by flag: static, or raised by the newest re-run of the recorded program"));
  m_flags->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_flags->setMinimumContentsLength(14);
  m_baseline = new QComboBox(this);
  m_baseline->setObjectName(QStringLiteral("filterBaseline"));
  m_baseline->setToolTip(
      tr("The recorded baseline (and timing mode) the Speedup column shows, the range applies to and the "
         "charts chart"));
  m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_baseline->setMinimumContentsLength(10);
  m_min = makeBoundSpin(QStringLiteral("filterMinSpeedup"), this);
  m_min->setToolTip(tr("Lowest recorded speedup shown"));
  m_max = makeBoundSpin(QStringLiteral("filterMaxSpeedup"), this);
  m_max->setToolTip(tr("Highest recorded speedup shown"));
  for (QComboBox* combo : {m_level, m_flags})
    connect(combo, &QComboBox::currentIndexChanged, this, &TaskTable::applyFilters);
  connect(m_baseline, &QComboBox::currentIndexChanged, this, &TaskTable::chooseSeries);
  for (QDoubleSpinBox* spin : {m_min, m_max})
    connect(spin, &QDoubleSpinBox::valueChanged, this, &TaskTable::applyFilters);
  auto* clear = new QToolButton(this);
  clear->setObjectName(QStringLiteral("filterClear"));
  clear->setText(tr("Clear"));
  clear->setToolTip(tr("Clear every filter"));
  connect(clear, &QToolButton::clicked, this, &TaskTable::clearFilters);

  auto* layout = static_cast<QVBoxLayout*>(this->layout());
  layout->addWidget(m_text);
  auto* choices = new QHBoxLayout;
  choices->addWidget(m_level);
  choices->addWidget(m_flags, 1);
  choices->addWidget(clear);
  layout->addLayout(choices);
  // The series on a row of its own: a CUDA-L2 label ("cuBLASLt-auto-tuning-max (offline)") needs the room
  // that a third of the range's row left to "torc".
  auto* shown = new QHBoxLayout;
  auto* shownLabel = new QLabel(tr("Speedup vs"), this);
  shownLabel->setBuddy(m_baseline);
  shown->addWidget(shownLabel);
  shown->addWidget(m_baseline, 1);
  layout->addLayout(shown);
  auto* range = new QHBoxLayout;
  auto* rangeLabel = new QLabel(tr("from"), this);
  rangeLabel->setBuddy(m_min);
  range->addWidget(rangeLabel);
  range->addWidget(m_min, 1);
  range->addWidget(new QLabel(tr("to"), this));
  range->addWidget(m_max, 1);
  layout->addLayout(range);
  fillFilterChoices();
}

void TaskTable::setRun(std::shared_ptr<const LoadedRun> run) {
  m_run = std::move(run);
  {
    const StageTimer timer("task table: the model and its order (setRun)");
    m_model->setRun(m_run);
    if (m_run) m_model->setChosenSeries(std::max(0, m_run->seriesIndex(m_wantSeries)));
  }
  fillFilterChoices();
  applyFilters();
  showDefaultColumns();
  if (m_proxy->rowCount() > 0) m_view->setCurrentIndex(m_proxy->index(0, 0));
}

void TaskTable::observe(const OpenRun* open) {
  connect(open, &OpenRun::opened, this, [this, open] {
    const StageTimer timer("view: task table (model, filter, sort)");
    m_wantSeries = open->series();
    setHistory(open->history());
    setRun(open->run());
  });
  connect(open, &OpenRun::seriesChanged, this, [this, open] { setSeries(open->series()); });
  connect(open, &OpenRun::flagsChanged, this, [this, open] { refreshFlags(open->run()); });
  connect(open, &OpenRun::historyChanged, this, [this, open] { setHistory(open->history()); });
  connect(open, &OpenRun::runAdded, this, [this, open] { setHistory(open->history()); });
}

void TaskTable::refreshFlags(std::shared_ptr<const LoadedRun> flagged) {
  m_run = flagged;
  m_model->refreshFlags(std::move(flagged));
  fillFilterChoices();
  applyFilters();
}

void TaskTable::setHistory(std::shared_ptr<const MeasuredHistory> history) {
  if (!m_model->setHistory(std::move(history))) return;
  fillFilterChoices();
  applyFilters();
}

void TaskTable::refreshMeasured() {
  if (!m_model->refreshMeasured()) return;
  // A re-run raised (or no longer raises) runtime flags: the family choices and their counts change.
  fillFilterChoices();
  applyFilters();
}

bool TaskTable::filterByFamily(const QString& family) {
  const auto& ids = m_model->familyIds();
  const auto it = std::find(ids.begin(), ids.end(), family.toStdString());
  const int index = it == ids.end() ? -1 : m_flags->findData(static_cast<int>(it - ids.begin()));
  if (index < 0) return false;
  m_flags->setCurrentIndex(index);  // applies the filter
  return true;
}

void TaskTable::fillFilterChoices() {
  m_filling = true;
  const int level = m_level->currentData().toInt();
  const int flag = m_flags->currentIndex() < 0 ? kAnyFlag : m_flags->currentData().toInt();
  const QString family = flag >= 0 ? m_flags->currentText().section(' ', 0, 0) : QString();

  std::map<int, int> levels;  // rows per level: a task's candidates, or its one row without any
  if (m_run)
    for (const Task& task : m_run->run().tasks)
      levels[task.level] += std::max<int>(1, static_cast<int>(task.candidates.size()));
  m_level->clear();
  m_level->addItem(tr("All levels"), 0);
  for (const auto& [l, count] : levels)
    if (l > 0) m_level->addItem(tr("Level %1 (%2)").arg(l).arg(count), l);
  m_level->setCurrentIndex(std::max(0, m_level->findData(level)));

  m_flags->clear();
  m_flags->addItem(tr("All candidates"), kAnyFlag);
  m_flags->addItem(tr("Flagged (hack or suspicious)"), kFlagged);
  m_flags->addItem(tr("Not flagged"), kUnflagged);
  const auto& ids = m_model->familyIds();
  for (std::size_t f = 0; f < ids.size(); ++f) {
    const int count = m_model->familyRowCounts()[f];
    if (count == 0) continue;
    const FlagFamily* known = findFlagFamily(ids[f]);
    const QString id = QString::fromStdString(ids[f]);
    m_flags->addItem(QStringLiteral("%1 (%2)").arg(id).arg(count), static_cast<int>(f));
    if (known)
      m_flags->setItemData(m_flags->count() - 1, QString::fromUtf8(known->title.data(), known->title.size()),
                           Qt::ToolTipRole);
  }
  int flagIndex = m_flags->findData(flag);
  if (flag >= 0) flagIndex = m_flags->findText(family + ' ', Qt::MatchStartsWith);
  m_flags->setCurrentIndex(std::max(0, flagIndex));

  m_baseline->clear();
  for (const SpeedupSeries& series : m_model->series())
    m_baseline->addItem(QString::fromStdString(seriesLabel(series)));
  if (m_baseline->count() == 0) m_baseline->addItem(QStringLiteral("default"));
  m_baseline->setCurrentIndex(m_model->seriesCount() > 0 ? m_model->chosenSeries() : 0);
  m_filling = false;
}

void TaskTable::applyFilters() {
  if (m_filling) return;
  m_proxy->setText(m_text->text());
  m_proxy->setLevel(m_level->currentData().toInt());
  const int flag = m_flags->currentData().toInt();
  using FlagFilter = CandidateFilterProxy::FlagFilter;
  m_proxy->setFlagFilter(flag == kAnyFlag     ? FlagFilter::Any
                         : flag == kFlagged   ? FlagFilter::Flagged
                         : flag == kUnflagged ? FlagFilter::Unflagged
                                              : FlagFilter::Family,
                         flag);
  m_proxy->setSpeedupRange(std::max(0, m_baseline->currentIndex()), m_min->value(), m_max->value());
  emit shownCountChanged(shownCount());
}

void TaskTable::followFilteredOutCurrent() {
  // A filter that hides the current task leaves the view without a current index and says nothing (the
  // selection model drops it silently): the panes would go on showing the hidden task. The first task
  // shown becomes current instead, or none when nothing is shown.
  if (m_view->currentIndex().isValid() || m_shownRow < 0) return;
  if (m_proxy->rowCount() > 0) {
    m_view->setCurrentIndex(m_proxy->index(0, 0));
  } else {
    m_shownRow = -1;
    emit currentRowChanged(-1);
  }
}

void TaskTable::clearFilters() {
  m_filling = true;
  m_text->clear();
  m_level->setCurrentIndex(0);
  m_flags->setCurrentIndex(0);
  m_min->setValue(0);
  m_max->setValue(0);
  m_filling = false;
  applyFilters();
}

SpeedupSeries TaskTable::series() const {
  const int chosen = m_model->chosenSeries();
  return chosen < m_model->seriesCount() ? m_model->series()[static_cast<std::size_t>(chosen)] : m_wantSeries;
}

void TaskTable::setSeries(const SpeedupSeries& series) {
  m_wantSeries = series;
  const int index = m_run ? m_run->seriesIndex(series) : -1;
  if (index >= 0 && index != m_baseline->currentIndex()) m_baseline->setCurrentIndex(index);  // chooseSeries
}

void TaskTable::chooseSeries(int index) {
  if (m_filling || index < 0 || index >= m_model->seriesCount()) return;
  // The Speedup column follows: the new series' column takes the old one's place (and its sort).
  QHeaderView* header = m_view->horizontalHeader();
  const int old = m_model->chosenColumn();
  m_model->setChosenSeries(index);
  const int now = m_model->chosenColumn();
  if (now != old) {
    const bool shown = !header->isSectionHidden(old);
    header->setSectionHidden(now, false);
    header->moveSection(header->visualIndex(now), header->visualIndex(old));
    if (shown) header->setSectionHidden(old, true);
    if (header->sortIndicatorSection() == old) m_view->sortByColumn(now, header->sortIndicatorOrder());
    // As wide as a Speedup column starts, or its header's widest line: not its width as another column,
    // whose header was one line.
    header->resizeSection(now, speedupWidth(index));
    fitHeader(now);
  }
  m_wantSeries = series();
  applyFilters();
  emit seriesChosen(m_wantSeries);
}

int TaskTable::speedupWidth(int series) const {
  // "default"'s column as it always was; a named series' header is its widest part, so the column is as
  // wide as its numbers ("1234.56×") and lets fitHeader widen it to its header's lines.
  const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
  if (series >= 0 && series < m_model->seriesCount() &&
      m_model->series()[static_cast<std::size_t>(series)].isDefault())
    return 6 * em;
  return fontMetrics().horizontalAdvance(QStringLiteral("1234.56×")) + em / 2;
}

void TaskTable::fitHeader(int column) {
  // No header narrower than its words (each line of them), the sorted one also its arrow.
  QHeaderView* header = m_view->horizontalHeader();
  const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
  int words = 0;
  for (const QString& line :
       m_model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString().split('\n'))
    words = std::max(words, header->fontMetrics().horizontalAdvance(line));
  // The sort arrow's room: the style's mark and a margin either side (a header of three lines is no wider).
  const int mark = style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
  const int arrow = column == header->sortIndicatorSection() ? mark + 2 * margin : 0;
  const int least = words + 2 * margin + 2 + arrow;
  if (header->sectionSize(column) < least) header->resizeSection(column, least);
}

void TaskTable::showDefaultColumns() {
  // Columns that say nothing for this run start hidden; the header's context menu shows them.
  bool anyStep = false;
  bool severalCandidates = false;
  if (m_run)
    for (int r = 0; r < m_run->rowCount(); ++r) {
      anyStep = anyStep || m_model->values(r).step >= 0;
      severalCandidates = severalCandidates || m_model->values(r).candidateIndex > 0;
    }
  // A name that only repeats the Task column's label and what every task shares (a CUDA-L2 release's
  // "GEMM 64x64x64 (h100_F32F16F16F32)") says nothing.
  const bool namesSayNothing =
      m_run && !m_run->run().tasks.empty() &&
      std::all_of(m_run->run().tasks.begin(), m_run->run().tasks.end(), nameRepeatsLabel);
  QHeaderView* header = m_view->horizontalHeader();
  for (int c = 0; c < m_model->columnCount(); ++c) {
    bool hidden = false;
    if (c == CandidateTableModel::LevelColumn) hidden = true;
    if (c == CandidateTableModel::NameColumn) hidden = namesSayNothing;
    if (c == CandidateTableModel::CandidateColumn) hidden = !severalCandidates;
    if (c == CandidateTableModel::StepColumn) hidden = !anyStep;
    if (c >= m_model->speedupColumn(0) && c < m_model->measuredColumn())
      hidden = c != m_model->chosenColumn();
    header->setSectionHidden(c, hidden);
  }
  // The chosen series' column is the Speedup column, where the first series' column is.
  if (m_model->seriesCount() > 0 && m_model->chosenColumn() != m_model->speedupColumn(0))
    header->moveSection(header->visualIndex(m_model->chosenColumn()),
                        header->visualIndex(m_model->speedupColumn(0)));
  const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
  int taskWidth = fontMetrics().horizontalAdvance(QStringLiteral("L3/100"));
  if (m_model->allGemm())  // the widest shape, so no row's K is cut off
    for (int r = 0; r < m_model->rowCount(); ++r)
      taskWidth =
          std::max(taskWidth, fontMetrics().horizontalAdvance(
                                  m_model->index(r, CandidateTableModel::TaskColumn).data().toString()));
  header->resizeSection(CandidateTableModel::TaskColumn, taskWidth + (m_model->allGemm() ? em / 2 : em));
  header->resizeSection(CandidateTableModel::LevelColumn, 4 * em);
  header->setSectionResizeMode(CandidateTableModel::NameColumn, QHeaderView::Stretch);
  header->resizeSection(CandidateTableModel::CandidateColumn, 6 * em);
  header->resizeSection(CandidateTableModel::StepColumn, 4 * em);
  for (int b = 0; b < m_model->seriesCount(); ++b)
    header->resizeSection(m_model->speedupColumn(b), speedupWidth(b));
  header->resizeSection(m_model->measuredColumn(), 7 * em);
  header->resizeSection(m_model->flagsColumn(), 8 * em);
  header->resizeSection(m_model->codeColumn(), fontMetrics().horizontalAdvance(tr("Code")) + 2 * em);
  // No header narrower than its words, the sorted one also its arrow: at 1024 pixels the stretched Name
  // column was squeezed to "lam" and Candidate cut. The list scrolls sideways instead.
  const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
  header->setMinimumSectionSize(
      header->fontMetrics().horizontalAdvance(
          m_model->headerData(CandidateTableModel::NameColumn, Qt::Horizontal, Qt::DisplayRole).toString()) +
      2 * margin + 2 +
      (CandidateTableModel::NameColumn == header->sortIndicatorSection()
           ? style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header) + 2 * margin
           : 0));
  for (int c = 0; c < m_model->columnCount(); ++c)
    if (c != CandidateTableModel::NameColumn) fitHeader(c);
}

void TaskTable::showHeaderMenu(const QPoint& pos) {
  QMenu menu(this);
  QHeaderView* header = m_view->horizontalHeader();
  for (int c = 0; c < m_model->columnCount(); ++c) {
    QAction* action = menu.addAction(m_model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    action->setCheckable(true);
    action->setChecked(!header->isSectionHidden(c));
    connect(action, &QAction::toggled, header, [header, c](bool on) { header->setSectionHidden(c, !on); });
  }
  menu.exec(header->mapToGlobal(pos));
}

int TaskTable::currentRow() const {
  const QModelIndex current = m_view->currentIndex();
  return current.isValid() ? m_proxy->mapToSource(current).row() : -1;
}

void TaskTable::setCurrentRow(int row) {
  const int proxyRow = m_proxy->proxyRow(row);
  if (proxyRow < 0) return;
  const QModelIndex index = m_proxy->index(proxyRow, 0);
  m_view->setCurrentIndex(index);
  m_view->scrollTo(index);
}

QList<int> TaskTable::selectedRows() const {
  QList<int> rows;
  for (const QModelIndex& index : m_view->selectionModel()->selectedRows())
    rows << m_proxy->mapToSource(index).row();
  std::sort(rows.begin(), rows.end());
  return rows;
}

int TaskTable::shownCount() const { return m_proxy->rowCount(); }

QString TaskTable::summaryText() const {
  if (!m_run) return tr("No file open");
  QStringList parts;
  const auto tasks = static_cast<int>(m_run->run().tasks.size());
  parts << counted(tasks, tr("task"), tr("tasks"));
  const auto candidates = static_cast<int>(m_run->run().candidateCount());
  if (candidates != tasks) parts << counted(candidates, tr("candidate"), tr("candidates"));
  parts << tr("%1 with code").arg(m_run->rowsWithCode());
  // Static flags and the runtime flags of each row's newest re-run, as the Flags column shows them.
  parts << (m_run->flagsChecked() ? tr("%1 flagged").arg(m_model->flaggedRows()) : tr("flags not checked"));
  parts << tr("showing %1").arg(shownCount());
  return parts.join(QStringLiteral(" · "));
}

void TaskTable::selectRows(const QList<int>& rows) {
  std::vector<int> proxyRows;
  int hidden = 0;
  for (int row : rows) {
    const int p = m_proxy->proxyRow(row);
    if (p < 0)
      ++hidden;
    else
      proxyRows.push_back(p);
  }
  std::sort(proxyRows.begin(), proxyRows.end());
  QItemSelection selection;
  const int lastColumn = m_proxy->columnCount() - 1;
  for (std::size_t i = 0; i < proxyRows.size();) {
    std::size_t j = i;
    while (j + 1 < proxyRows.size() && proxyRows[j + 1] <= proxyRows[j] + 1) ++j;
    selection.select(m_proxy->index(proxyRows[i], 0), m_proxy->index(proxyRows[j], lastColumn));
    i = j + 1;
  }
  if (!proxyRows.empty()) {
    const QModelIndex first = m_proxy->index(proxyRows.front(), 0);
    m_view->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    m_view->scrollTo(first, QAbstractItemView::PositionAtTop);
  }
  m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
  if (hidden > 0)
    emit message(tr("%1 hidden by the filter (Clear shows them)")
                     .arg(counted(hidden, tr("chosen candidate is"), tr("chosen candidates are"))));
  else
    emit message(
        tr("Selected %1")
            .arg(counted(static_cast<qsizetype>(proxyRows.size()), tr("candidate"), tr("candidates"))));
}

void TaskTable::focusFilter() {
  m_text->setFocus(Qt::ShortcutFocusReason);
  m_text->selectAll();
}

}  // namespace ks
