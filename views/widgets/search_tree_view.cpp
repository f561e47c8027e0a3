#include "views/widgets/search_tree_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include "views/charts/best_by_round_chart.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/logic/stage_timer.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/search_tree_canvas.h"
#include "views/widgets/shape_map_legend.h"
#include "views/widgets/rgb_qcolor.h"

namespace ks {

SearchTreeView::SearchTreeView(QWidget* parent)
    : QWidget(parent),
      m_scope(new QComboBox(this)),
      m_fit(new QToolButton(this)),
      m_note(new QLabel(this)),
      m_canvas(new SearchTreeCanvas(this)),
      m_best(new BestByRoundChart(this)),
      m_legend(new ShapeMapLegend(this)),
      m_compare(new CodeCompareView(this)),
      m_top(new QSplitter(Qt::Horizontal, this)),
      m_split(new QSplitter(Qt::Vertical, this)) {
  setObjectName(QStringLiteral("searchTreeView"));
  m_scope->setObjectName(QStringLiteral("searchScope"));
  m_scope->setToolTip(
      tr("Whose search to draw: one task's candidates (ids and parents are per task), or "
         "every task side by side"));
  m_scope->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_scope->setMinimumContentsLength(24);
  m_fit->setObjectName(QStringLiteral("searchFit"));
  m_fit->setText(tr("Fit"));
  m_fit->setToolTip(tr("Show the whole search"));
  m_note->setObjectName(QStringLiteral("searchNote"));
  m_note->setWordWrap(true);
  m_note->setTextFormat(Qt::PlainText);
  m_note->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  m_compare->setObjectName(QStringLiteral("searchCompare"));
  m_compare->setParentMode(true);

  // The key on a line of its own under the choices: beside them it was squeezed until its words ran into
  // each other ("fastercaught hack") at 1024 pixels; it wraps its swatches under the scale when narrow.
  m_legend->setObjectName(QStringLiteral("searchLegend"));
  const Rgb failed = search_colours::kFailed;
  m_legend->addSwatch(qcolor(failed), tr("incorrect or error"),
                      tr("Near black: its run's output did not match the reference, or it never reached a "
                         "verdict (build, crash, timeout)"));
  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 0);
  bar->addWidget(new QLabel(tr("Search of"), this));
  bar->addWidget(m_scope);
  bar->addWidget(m_fit);
  bar->addStretch(1);
  auto* legendRow = new QHBoxLayout;
  legendRow->setContentsMargins(4, 0, 4, 0);
  legendRow->addWidget(m_legend);

  m_top->setObjectName(QStringLiteral("searchTopSplitter"));
  m_top->addWidget(m_canvas);
  m_top->addWidget(m_best);
  m_top->setStretchFactor(0, 2);
  m_top->setStretchFactor(1, 1);
  m_top->setChildrenCollapsible(false);
  // Room for the log axis's labels and a plot beside them (at 160 pixels its labels were cut to "…").
  m_best->setMinimumWidth(240);
  m_split->setObjectName(QStringLiteral("searchSplitter"));
  auto* upper = new QWidget(this);
  auto* upperLayout = new QVBoxLayout(upper);
  upperLayout->setContentsMargins(0, 0, 0, 0);
  upperLayout->setSpacing(2);
  upperLayout->addLayout(bar);
  upperLayout->addLayout(legendRow);
  upperLayout->addWidget(m_note);
  upperLayout->addWidget(m_top, 1);
  m_split->addWidget(upper);
  m_split->addWidget(m_compare);
  m_split->setStretchFactor(0, 3);
  m_split->setStretchFactor(1, 2);
  m_split->setChildrenCollapsible(false);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_split);

  connect(m_fit, &QToolButton::clicked, m_canvas, &SearchTreeCanvas::fit);
  connect(m_scope, &QComboBox::currentIndexChanged, this, [this] {
    rebuild();
    if (m_open) showCurrent(m_open->currentRow());
  });
  connect(m_canvas, &SearchTreeCanvas::nodeClicked, this, [this](int node) {
    if (m_tree) emit rowSelected(m_tree->nodes()[static_cast<std::size_t>(node)].row);
  });
  connect(m_best, &BestByRoundChart::rowSelected, this, &SearchTreeView::rowSelected);
  m_canvas->setToolTipSource([this](int node) {
    if (!m_open || !m_open->run() || !m_tree) return QString();
    return searchNodeToolTip(*m_open->run(), *m_tree, node, m_states[static_cast<std::size_t>(node)]);
  });
  m_canvas->setLabelSource([this](int node) {
    const Candidate* c = m_open && m_open->run() && m_tree
                             ? m_open->run()->candidate(m_tree->nodes()[static_cast<std::size_t>(node)].row)
                             : nullptr;
    return c ? QString::fromStdString(c->id) : QString();
  });
  updateNote();
}

void SearchTreeView::observe(const OpenRun* open) {
  m_open = open;
  m_compare->observe(open);
  connect(open, &OpenRun::opened, this, [this] {
    const StageTimer timer("view: search tree (layout, colours, chart)");
    fillScopes();
    rebuild();
  });
  connect(open, &OpenRun::flagsChanged, this, &SearchTreeView::recolour);
  connect(open, &OpenRun::historyChanged, this, &SearchTreeView::recolour);
  connect(open, &OpenRun::runAdded, this, &SearchTreeView::recolour);
  connect(open, &OpenRun::seriesChanged, this, &SearchTreeView::recolour);
  connect(open, &OpenRun::currentChanged, this, &SearchTreeView::showCurrent);
}

int SearchTreeView::scopeTask() const {
  return m_scope->currentIndex() < 0 ? SearchTree::kAllTasks : m_scope->currentData().toInt();
}

void SearchTreeView::setScopeTask(int task) {
  const int index = m_scope->findData(task);
  if (index >= 0) m_scope->setCurrentIndex(index);
}

void SearchTreeView::fillScopes() {
  const QSignalBlocker block(m_scope);
  m_scope->clear();
  const std::shared_ptr<const LoadedRun>& run = m_open ? m_open->run() : nullptr;
  if (!run) return;
  const std::vector<Task>& tasks = run->run().tasks;
  int most = -1;
  int withCandidates = 0;
  for (std::size_t t = 0; t < tasks.size(); ++t)
    if (!tasks[t].candidates.empty()) {
      ++withCandidates;
      if (most < 0 || tasks[t].candidates.size() > tasks[static_cast<std::size_t>(most)].candidates.size())
        most = static_cast<int>(t);
    }
  if (withCandidates > 1)
    m_scope->addItem(tr("Every task (%1 candidates)").arg(run->run().candidateCount()),
                     SearchTree::kAllTasks);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    if (tasks[t].candidates.empty()) continue;
    const Task& task = tasks[t];
    m_scope->addItem(tr("%1 %2 (%3)")
                         .arg(QString::fromStdString(task.key()), QString::fromStdString(task.name))
                         .arg(task.candidates.size()),
                     static_cast<int>(t));
  }
  // The task with the most candidates: most runs are one task's search.
  if (most >= 0) m_scope->setCurrentIndex(m_scope->findData(most));
  m_scope->setEnabled(m_scope->count() > 1);
}

void SearchTreeView::rebuild() {
  const std::shared_ptr<const LoadedRun>& run = m_open ? m_open->run() : nullptr;
  if (!run || m_scope->count() == 0) {
    m_tree.reset();
    m_states.clear();
    m_canvas->setTree(nullptr, {});
    m_best->setRounds({}, run ? tr("The run has no candidates.") : tr("Open a run to see its search."));
    updateNote();
    return;
  }
  m_tree = std::make_shared<const SearchTree>(SearchTree::build(*run, scopeTask()));
  m_canvas->setTree(m_tree, colourStates());
  showRounds();
}

std::vector<Rgb> SearchTreeView::colourStates() {
  m_states = searchNodeStates(*m_open->run(), m_open->history().get(), *m_tree, m_open->series());
  std::vector<Rgb> colours;
  colours.reserve(m_states.size());
  for (const SearchNodeState& s : m_states) colours.push_back(searchNodeColour(s));
  return colours;
}

void SearchTreeView::recolour() {
  const std::shared_ptr<const LoadedRun>& run = m_open ? m_open->run() : nullptr;
  if (!run || !m_tree) return updateNote();
  m_canvas->setColours(colourStates());
  showRounds();
}

void SearchTreeView::showRounds() {
  if (m_tree->kind() == SearchTree::Kind::Flat)
    m_best->setRounds({}, tr("No rounds or lineage: nothing to chart by round."));
  else if (scopeTask() == SearchTree::kAllTasks)
    m_best->setRounds({}, tr("Choose one task to see its best so far by round (every task's rounds are "
                             "different searches)."));
  else
    m_best->setRounds(bestSoFarByRound(*m_tree, m_states));
  updateNote();
}

void SearchTreeView::showCurrent(int row) {
  const std::shared_ptr<const LoadedRun>& run = m_open ? m_open->run() : nullptr;
  if (!run || !m_tree) return;
  if (row >= 0 && row < run->rowCount() && run->candidate(row) && m_tree->nodeOfRow(row) < 0 &&
      scopeTask() != SearchTree::kAllTasks) {
    setScopeTask(run->row(row).task);  // the search the candidate belongs to (rebuilds, then comes back)
    return;
  }
  m_canvas->setCurrentNode(m_tree->nodeOfRow(row));
}

void SearchTreeView::updateNote() {
  if (!m_tree) {
    m_note->setText(m_open && m_open->run() ? tr("The run has no candidates.")
                                            : tr("Open a run to see the search behind it."));
    return;
  }
  const int n = static_cast<int>(m_tree->nodes().size());
  QString text;
  switch (m_tree->kind()) {
    case SearchTree::Kind::Rounds:
      text = tr("%1 candidates over %2 rounds, one row per round, each under the candidate it was derived "
                "from.")
                 .arg(n)
                 .arg(m_tree->layerCount());
      break;
    case SearchTree::Kind::Lineage:
      text =
          tr("%1 candidates. The run records no rounds: each row is one step further in the lineage.").arg(n);
      break;
    case SearchTree::Kind::Flat:
      text = tr("No lineage in this run: no candidate names a parent or a round, so the %1 candidates are a "
                "flat list in file order.")
                 .arg(n);
      break;
  }
  int failed = 0, untrusted = 0, unmeasured = 0;
  for (const SearchNodeState& s : m_states) {
    failed += s.status == SearchNodeState::Status::Incorrect || s.status == SearchNodeState::Status::Error;
    untrusted += s.status == SearchNodeState::Status::Untrusted;
    unmeasured += s.status == SearchNodeState::Status::NoNumber;
  }
  text += tr(" %1 failed, %2 not counted as wins (caught hack or fell back), %3 not measured.")
              .arg(failed)
              .arg(untrusted)
              .arg(unmeasured);
  QString tip;
  if (m_tree->issueCount() > 0) {
    text += tr(" %n lineage problem(s), drawn as best we could (hover).", "",
               static_cast<int>(m_tree->issueCount()));
    for (const std::string& issue : m_tree->issues()) tip += QString::fromStdString(issue) + '\n';
    if (m_tree->issueCount() > m_tree->issues().size())
      tip += tr("… and %1 more").arg(m_tree->issueCount() - m_tree->issues().size());
  }
  m_note->setText(text);
  m_note->setToolTip(tip.trimmed());
}

}  // namespace ks
