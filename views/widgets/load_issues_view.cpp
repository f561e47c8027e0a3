#include "views/widgets/load_issues_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/logic/stage_timer.h"
#include "views/item_models/load_issue_model.h"

namespace ks {

LoadIssuesView::LoadIssuesView(QWidget* parent)
    : QWidget(parent),
      m_model(new LoadIssueModel(this)),
      m_view(new QTableView(this)),
      m_empty(new QLabel(this)),
      m_stack(new QStackedWidget(this)) {
  m_view->setObjectName(QStringLiteral("issuesTable"));
  m_view->setModel(m_model);
  m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_view->setWordWrap(false);
  m_view->setAlternatingRowColors(true);
  m_view->verticalHeader()->hide();
  m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  m_view->horizontalHeader()->setStretchLastSection(true);
  m_view->horizontalHeader()->setHighlightSections(false);
  const int em = fontMetrics().horizontalAdvance(QLatin1Char('M'));
  m_view->setColumnWidth(LoadIssueModel::SeverityColumn, 6 * em);
  m_view->setColumnWidth(LoadIssueModel::LocationColumn, 12 * em);

  auto* copy = new QAction(tr("Copy"), m_view);
  copy->setShortcut(QKeySequence::Copy);
  copy->setShortcutContext(Qt::WidgetShortcut);
  connect(copy, &QAction::triggered, this, &LoadIssuesView::copySelection);
  m_view->addAction(copy);
  m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

  m_empty->setAlignment(Qt::AlignCenter);
  m_empty->setWordWrap(true);
  m_empty->setStyleSheet(QStringLiteral("color: #57606a;"));
  m_stack->addWidget(m_view);
  m_stack->addWidget(m_empty);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_stack);
  setRun(nullptr);
}

void LoadIssuesView::setRun(std::shared_ptr<const LoadedRun> run) {
  m_run = std::move(run);
  m_model->setIssues(m_run ? m_run->run().issues : std::vector<LoadIssue>());
  if (m_model->rowCount() > 0) {
    m_stack->setCurrentWidget(m_view);
    return;
  }
  m_empty->setText(m_run ? tr("No problems while reading %1.")
                               .arg(QFileInfo(QString::fromStdString(m_run->run().path)).fileName())
                         : tr("Problems met while reading a file are listed here."));
  m_stack->setCurrentWidget(m_empty);
}

void LoadIssuesView::observe(const OpenRun* open) {
  connect(open, &OpenRun::opened, this, [this, open] {
    const StageTimer timer("view: load issues");
    setRun(open->run());
  });
  connect(open, &OpenRun::flagsChanged, this,
          [this, open] { setRun(open->run()); });  // issues of failed checks
}

int LoadIssuesView::issueCount() const { return m_model->rowCount(); }

void LoadIssuesView::copySelection() const {
  QModelIndexList rows = m_view->selectionModel()->selectedRows();
  std::sort(rows.begin(), rows.end());
  QStringList lines;
  for (const QModelIndex& index : rows)
    lines << QString::fromStdString(m_model->issue(index.row()).toString());
  if (!lines.isEmpty()) QApplication::clipboard()->setText(lines.join('\n'));
}

}  // namespace ks
