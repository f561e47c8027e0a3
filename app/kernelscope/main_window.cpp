#include "app/kernelscope/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>

#include "app/kernelscope/edit_autosave.h"
#include "app/kernelscope/history_loader.h"
#include "app/kernelscope/recent_files.h"
#include "app/kernelscope/run_controller.h"
#include "app/kernelscope/run_loader.h"
#include "core/hash/sha256.h"
#include "core/store/store_path.h"
#include "views/analysis_view.h"
#include "views/candidate_filter_proxy.h"
#include "views/charts_view.h"
#include "views/code_compare_view.h"
#include "views/code_editor.h"
#include "views/code_problems.h"
#include "views/counted.h"
#include "views/flags_view.h"
#include "views/load_issues_view.h"
#include "views/loaded_run.h"
#include "views/measured_format.h"
#include "views/measured_history.h"
#include "views/measurements_view.h"
#include "views/run_settings_bar.h"
#include "views/runtime_evidence.h"
#include "views/task_table.h"

// Q_INIT_RESOURCE must be called from the global namespace; the resources live in this static library.
static void initResources() { Q_INIT_RESOURCE(kernelscope); }

namespace ks {
namespace {

constexpr int kStateVersion = 1;
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kCodeStateKey = QStringLiteral("mainWindow/codeCompare");
const QString kCenterTabKey = QStringLiteral("mainWindow/centerTab");
const QString kBaselineKey = QStringLiteral("charts/baseline");
const QString kRunSettingsKey = QStringLiteral("run/settings");
const QString kDirectoryKey = QStringLiteral("lastDirectory");

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_loader(new RunLoader(this)),
      m_recent(new RecentFiles(this)),
      m_runs(new RunController({}, store::defaultStorePath(), this)),
      m_historyLoader(new HistoryLoader(store::defaultStorePath(), this)),
      m_edits(new EditAutosave({}, this)),
      m_tasks(new TaskTable(this)),
      m_code(new CodeCompareView(this)),
      m_analysis(new AnalysisView(this)),
      m_charts(new ChartsView(this)),
      m_flags(new FlagsView(this)),
      m_issues(new LoadIssuesView(this)),
      m_measurements(new MeasurementsView(this)),
      m_runSettings(new RunSettingsBar(this)),
      m_center(new QTabWidget(this)),
      m_counts(new QLabel(this)),
      m_issueCount(new QLabel(this)),
      m_progress(new QProgressBar(this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_runProgress(new QProgressBar(this)),
      m_runCancel(new QPushButton(tr("Cancel Runs"), this)) {
  initResources();
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/kernelscope.png")));
  setAcceptDrops(true);
  setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

  m_center->setObjectName(QStringLiteral("centerTabs"));
  m_center->setDocumentMode(true);
  m_center->addTab(m_code, tr("Code"));
  m_center->addTab(m_charts, tr("Charts"));
  setCentralWidget(m_center);

  m_tasksDock = addDock(tr("Tasks"), QStringLiteral("tasksDock"), m_tasks, Qt::LeftDockWidgetArea);
  m_analysisDock =
      addDock(tr("Analysis"), QStringLiteral("analysisDock"), m_analysis, Qt::RightDockWidgetArea);
  m_flagsDock = addDock(tr("Flags"), QStringLiteral("flagsDock"), m_flags, Qt::BottomDockWidgetArea);
  m_issuesDock = addDock(tr("Load issues"), QStringLiteral("issuesDock"), m_issues, Qt::BottomDockWidgetArea);
  m_measurementsDock = addDock(tr("Measurements"), QStringLiteral("measurementsDock"), m_measurements,
                               Qt::BottomDockWidgetArea);
  tabifyDockWidget(m_flagsDock, m_issuesDock);
  tabifyDockWidget(m_flagsDock, m_measurementsDock);
  m_flagsDock->raise();
  resizeDocks({m_tasksDock, m_analysisDock}, {470, 380}, Qt::Horizontal);
  resizeDocks({m_flagsDock}, {250}, Qt::Vertical);

  m_counts->setObjectName(QStringLiteral("statusCounts"));
  m_issueCount->setObjectName(QStringLiteral("statusIssues"));
  m_issueCount->setTextFormat(Qt::RichText);
  connect(m_issueCount, &QLabel::linkActivated, this, [this] { showPane(Pane::Issues); });
  m_progress->setObjectName(QStringLiteral("loadProgress"));
  m_progress->setRange(0, 1000);
  m_progress->setMaximumWidth(220);
  m_progress->setTextVisible(true);
  m_cancel->setObjectName(QStringLiteral("loadCancel"));
  m_cancel->setToolTip(
      tr("Stop: while reading, the file open now stays open; while checking, the new run "
         "stays without flags"));
  connect(m_cancel, &QPushButton::clicked, m_loader, &RunLoader::cancel);
  m_runProgress->setObjectName(QStringLiteral("runProgress"));
  m_runProgress->setMinimumWidth(320);
  m_runProgress->setTextVisible(true);
  m_runProgress->hide();
  m_runCancel->setObjectName(QStringLiteral("runCancel"));
  m_runCancel->setToolTip(tr("Stop the run in progress (its runner is killed) and drop the queued ones"));
  m_runCancel->hide();
  connect(m_runCancel, &QPushButton::clicked, m_runs, &RunController::cancel);
  statusBar()->addPermanentWidget(m_runProgress);
  statusBar()->addPermanentWidget(m_runCancel);
  statusBar()->addPermanentWidget(m_progress);
  statusBar()->addPermanentWidget(m_cancel);
  statusBar()->addPermanentWidget(m_issueCount);
  statusBar()->addPermanentWidget(m_counts);
  setLoadingUi(false);

  createMenus();
  connectViews();
  connectLoader();
  connectRuns();
  restoreSettings();
  showRun({}, nullptr);
}

MainWindow::~MainWindow() = default;

QDockWidget* MainWindow::addDock(const QString& title, const QString& objectName, QWidget* widget,
                                 Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(objectName);  // saveState/restoreState find docks by name
  dock->setWidget(widget);
  addDockWidget(area, dock);
  return dock;
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this,
                                  &MainWindow::chooseFile);
  open->setShortcut(QKeySequence::Open);
  open->setStatusTip(tr("Open a CUDA-L1 release, a KernelScope run or a .cu kernel"));
  QAction* folder = file->addAction(style()->standardIcon(QStyle::SP_DirOpenIcon),
                                    tr("Open KernelBench &Folder…"), this, &MainWindow::chooseFolder);
  folder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
  QAction* reloadAction = file->addAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Reload"),
                                          this, &MainWindow::reload);
  reloadAction->setObjectName(QStringLiteral("reloadAction"));
  reloadAction->setShortcut(QKeySequence::Refresh);
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  connect(m_recent, &RecentFiles::changed, this, &MainWindow::rebuildRecentMenu);
  rebuildRecentMenu();

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  QAction* filter = edit->addAction(tr("&Filter Tasks"), m_tasks, [this] {
    showPane(Pane::Tasks);
    m_tasks->focusFilter();
  });
  filter->setShortcut(QKeySequence::Find);
  edit->addAction(tr("&Clear Filters"), m_tasks, &TaskTable::clearFilters);
  edit->addSeparator();
  m_editAction = edit->addAction(tr("&Edit Candidate"));
  m_editAction->setObjectName(QStringLiteral("editAction"));
  m_editAction->setCheckable(true);
  m_editAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
  m_editAction->setStatusTip(
      tr("Edit the candidate program: a new version of it, autosaved, that Run times"));
  connect(m_editAction, &QAction::toggled, m_code, &CodeCompareView::setEditing);
  m_revertAction = edit->addAction(tr("Re&vert Edit"), m_code, &CodeCompareView::revertEdit);
  m_revertAction->setObjectName(QStringLiteral("revertAction"));
  m_revertAction->setStatusTip(tr("Discard the edit and show the recorded program again"));

  QMenu* runMenu = menuBar()->addMenu(tr("&Run"));
  m_runAction = runMenu->addAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run Selected Candidate"),
                                   this, &MainWindow::runSelected);
  m_runAction->setObjectName(QStringLiteral("runAction"));
  m_runAction->setShortcut(QKeySequence(Qt::Key_F9));
  m_runAction->setStatusTip(
      tr("Build, check and time the selected candidate on this machine, as shown (an edit included)"));
  m_runAllAction = runMenu->addAction(style()->standardIcon(QStyle::SP_MediaSeekForward),
                                      tr("Run &All Visible"), this, &MainWindow::runAllVisible);
  m_runAllAction->setObjectName(QStringLiteral("runAllAction"));
  m_runAllAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F9));
  m_runAllAction->setStatusTip(tr("Queue the recorded program of every candidate the task list shows"));
  m_cancelRunsAction = runMenu->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel Runs"),
                                          m_runs, &RunController::cancel);
  m_cancelRunsAction->setObjectName(QStringLiteral("cancelRunsAction"));
  m_cancelRunsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F9));
  m_cancelRunsAction->setEnabled(false);

  m_runBar = addToolBar(tr("Run"));
  m_runBar->setObjectName(QStringLiteral("runToolBar"));
  m_runBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  m_runBar->addAction(m_runAction);
  m_runBar->addAction(m_runAllAction);
  m_runBar->addAction(m_cancelRunsAction);
  m_runBar->addSeparator();
  m_runBar->addWidget(m_runSettings);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  const std::pair<Pane, QString> panes[] = {{Pane::Tasks, tr("&Task List")},
                                            {Pane::Code, tr("&Code")},
                                            {Pane::Analysis, tr("&Analysis")},
                                            {Pane::Charts, tr("C&harts")},
                                            {Pane::Flags, tr("&Flags")},
                                            {Pane::Issues, tr("&Load Issues")},
                                            {Pane::Measurements, tr("&Measurements")}};
  for (const auto& [pane, title] : panes) {
    QAction* action = view->addAction(title, this, [this, pane = pane] { showPane(pane); });
    action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_0 + static_cast<int>(pane))));
  }
  view->addSeparator();
  QAction* sync = view->addAction(tr("&Synchronized Scrolling"));
  sync->setCheckable(true);
  sync->setChecked(m_code->isSyncScrolling());
  connect(sync, &QAction::toggled, m_code, &CodeCompareView::setSyncScrolling);
  QMenu* panels = view->addMenu(tr("&Panels"));
  for (QDockWidget* dock : {m_tasksDock, m_analysisDock, m_measurementsDock, m_flagsDock, m_issuesDock})
    panels->addAction(dock->toggleViewAction());
  panels->addAction(m_runBar->toggleViewAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About KernelScope"), this, [this] {
    QMessageBox::about(this, tr("About KernelScope"),
                       tr("<h3>KernelScope %1</h3><p>An explorer for GPU kernels generated by RL systems and "
                          "their claimed speedups. Recorded numbers are claims; flags show the evidence "
                          "against them.</p><p>Qt %2</p>")
                           .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
  });
}

void MainWindow::connectViews() {
  connect(m_tasks, &TaskTable::currentRowChanged, this, &MainWindow::showCurrentRow);
  connect(m_tasks, &TaskTable::shownCountChanged, this, &MainWindow::updateStatus);
  connect(m_tasks, &TaskTable::message, this,
          [this](const QString& text) { statusBar()->showMessage(text, 6000); });
  connect(m_charts, &ChartsView::rowsSelected, m_tasks, &TaskTable::selectRows);
  connect(m_charts, &ChartsView::familyChosen, this, [this](const QString& family, const QList<int>& rows) {
    if (!m_tasks->filterByFamily(family))
      statusBar()->showMessage(tr("No candidate raises %1").arg(family), 6000);
    m_tasks->selectRows(rows);
  });
  const auto goToLine = [this](int line) {
    m_center->setCurrentWidget(m_code);
    m_code->goToCandidateLine(line);
  };
  connect(m_flags, &FlagsView::lineRequested, this, goToLine);
  connect(m_measurements, &MeasurementsView::lineRequested, this, goToLine);
  connect(m_code, &CodeCompareView::editingChanged, m_editAction, &QAction::setChecked);
  connect(m_code, &CodeCompareView::programEdited, m_edits, &EditAutosave::edited);
  connect(m_code, &CodeCompareView::editReverted, m_edits, &EditAutosave::discard);
  connect(m_edits, &EditAutosave::failed, this,
          [this](const QString& message) { statusBar()->showMessage(message, 15000); });
}

void MainWindow::connectRuns() {
  connect(m_runs, &RunController::environmentChanged, m_runSettings, &RunSettingsBar::setEnvironment);
  connect(m_runs, &RunController::runnerUnavailable, m_runSettings, &RunSettingsBar::setRunnerProblem);
  connect(m_runs, &RunController::progressChanged, this, [this](int done, int total, const QString& text) {
    m_runProgress->setRange(0, total);
    m_runProgress->setValue(done);
    m_runProgress->setFormat(text);
    m_runProgress->setToolTip(text);
    m_runProgress->show();
    m_runCancel->show();
    m_cancelRunsAction->setEnabled(true);
  });
  connect(m_runs, &RunController::finished, this, &MainWindow::showRunResult);
  connect(m_runs, &RunController::idle, this, [this](int ran, int cancelled) {
    m_runProgress->hide();
    m_runCancel->hide();
    m_cancelRunsAction->setEnabled(false);
    if (cancelled > 0)
      statusBar()->showMessage(tr("Runs cancelled: %1 ran, %2 cancelled").arg(ran).arg(cancelled), 8000);
  });
  connect(m_historyLoader, &HistoryLoader::loaded, this, &MainWindow::showHistory);
  if (!m_runs->runnerProblem().isEmpty()) m_runSettings->setRunnerProblem(m_runs->runnerProblem());
}

void MainWindow::applyRunSettings() {
  m_runs->setChoices(m_runSettings->choices(),
                     {.phaseSeconds = static_cast<double>(m_runSettings->phaseLimitSeconds()),
                      .memoryGiB = static_cast<double>(m_runSettings->memoryLimitGiB())});
}

void MainWindow::runSelected() {
  const int row = m_tasks->currentRow();
  applyRunSettings();
  const QString problem = m_runs->enqueue(m_run, m_path, row, m_code->candidateProgram());
  if (!problem.isEmpty()) statusBar()->showMessage(tr("Cannot run: %1").arg(problem), 8000);
}

void MainWindow::runAllVisible() {
  if (!m_run) return;
  QList<int> rows;
  for (int p = 0; p < m_tasks->proxy()->rowCount(); ++p) rows << m_tasks->proxy()->sourceRow(p);
  applyRunSettings();
  const int queued = m_runs->enqueueRecorded(m_run, m_path, rows);
  statusBar()->showMessage(
      queued > 0 ? tr("Queued %1").arg(counted(queued, tr("candidate"), tr("candidates")))
                 : (m_runs->runnerProblem().isEmpty() ? tr("No candidate shown has a program to run")
                                                      : tr("Cannot run: %1").arg(m_runs->runnerProblem())),
      6000);
}

void MainWindow::showRunResult(const RunJob& job, const runs::MeasuredRun& run, const QString& storeError) {
  const bool cancelled = run.error && run.error->kind == protocol::ErrorKind::Cancelled;
  QString message = QStringLiteral("%1: %2").arg(job.label(), outcomeText(run));
  if (run.row.speedup) message += QStringLiteral(" ") + speedupWithSpread(run);
  if (!storeError.isEmpty()) message += tr(" — not recorded: %1").arg(storeError);
  statusBar()->showMessage(message, 10000);
  if (cancelled || job.run != m_run) return;  // another file is open now: its history is read afresh
  m_history->add(job.row, {run, !job.edited});
  m_tasks->refreshMeasured();
  m_charts->refreshMeasured();
  updateStatus();  // the flagged count includes runtime flags
  if (job.row == m_tasks->currentRow()) {
    m_flags->refreshMeasured();
    showRuntimeFlagsOnCode();
    m_measurements->refresh();
    showProblemsOfShownProgram();
    m_measurementsDock->show();
    m_measurementsDock->raise();
  }
  emit runFinished();
}

void MainWindow::showHistory(const std::shared_ptr<const LoadedRun>& run,
                             std::shared_ptr<MeasuredHistory> history, const QString& error) {
  if (run != m_run) return;
  history->merge(*m_history);  // runs that finished while it was being read
  m_history = std::move(history);
  m_tasks->setHistory(m_history);
  m_charts->setHistory(m_history);
  m_flags->setHistory(m_history);
  updateStatus();
  showRuntimeFlagsOnCode();
  m_measurements->showRow(m_run, m_history, m_tasks->currentRow());
  showProblemsOfShownProgram();
  if (!error.isEmpty()) statusBar()->showMessage(tr("Results history not read: %1").arg(error), 10000);
  emit historyShown();
}

void MainWindow::showProblemsOfShownProgram() {
  const int row = m_tasks->currentRow();
  const runs::MeasuredRun* run =
      m_code->hasProgram()
          ? m_history->latestOfCode(row, hash::codeHash(m_code->candidateProgram().toStdString()))
          : nullptr;
  m_code->showProblems(run ? candidateProblems(*run) : std::vector<CodeProblem>{});
}

void MainWindow::showRuntimeFlagsOnCode() {
  m_code->setRuntimeFlags(runtimeEvidence(m_history.get(), m_tasks->currentRow()).flags);
}

void MainWindow::restoreEdit(int row) {
  const Candidate* c = m_run && row >= 0 ? m_run->candidate(row) : nullptr;
  if (!c || !c->code) {
    m_edits->setCurrent(std::nullopt);
    return;
  }
  const EditAutosave::Key key{m_path, QString::fromStdString(m_run->task(row).key()),
                              QString::fromStdString(c->id)};
  m_edits->setCurrent(key);
  const auto saved = m_edits->saved(key);
  if (!saved || saved->text.toStdString() == *c->code) return;
  const QDateTime at = saved->savedAt.toLocalTime();
  m_code->showEdit(saved->text, tr("Restored unsaved edit from %1 — Revert shows the recorded program")
                                    .arg(at.date() == QDate::currentDate()
                                             ? at.toString(QStringLiteral("HH:mm"))
                                             : at.toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
}

void MainWindow::connectLoader() {
  connect(m_loader, &RunLoader::started, this, [this](const QString& path) {
    statusBar()->showMessage(tr("Opening %1…").arg(QDir::toNativeSeparators(path)));
  });
  connect(m_loader, &RunLoader::slow, this, [this] { setLoadingUi(true); });
  connect(m_loader, &RunLoader::progressChanged, this, [this](int permille, const QString& phase) {
    m_progress->setValue(permille);
    m_progress->setFormat(tr("%1 %p%").arg(phase));
  });
  connect(m_loader, &RunLoader::loaded, this, &MainWindow::showRun);
  connect(m_loader, &RunLoader::flagsChecked, this, &MainWindow::showFlags);
  connect(m_loader, &RunLoader::failed, this, &MainWindow::showLoadFailure);
  connect(m_loader, &RunLoader::canceled, this, [this](const QString& path) {
    setLoadingUi(false);
    statusBar()->showMessage(path == m_path
                                 ? tr("Stopped the static checks: flags not checked (F5 runs them)")
                                 : tr("Stopped opening %1").arg(QDir::toNativeSeparators(path)),
                             8000);
  });
}

void MainWindow::openPath(const QString& path) {
  if (path.isEmpty()) return;
  const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
  if (absolute != m_path) m_reselectTask.clear();
  m_loader->open(absolute);
}

void MainWindow::reload() {
  if (m_path.isEmpty()) return;
  const int row = m_tasks->currentRow();
  m_reselectTask.clear();
  m_reselectCandidate.clear();
  if (m_run && row >= 0) {
    m_reselectTask = m_run->task(row).key();
    if (const Candidate* c = m_run->candidate(row)) m_reselectCandidate = c->id;
  }
  m_loader->open(m_path);
}

void MainWindow::showRun(const QString& path, std::shared_ptr<const LoadedRun> run) {
  if (!m_loader->isBusy()) setLoadingUi(false);
  m_path = path;
  m_run = std::move(run);
  m_history = std::make_shared<MeasuredHistory>(m_run ? m_run->rowCount() : 0);
  m_tasks->setHistory(m_history);
  m_charts->setHistory(m_history);
  m_flags->setHistory(m_history);
  m_historyLoader->load(m_path, m_run);
  m_tasks->setRun(m_run);
  m_charts->setRun(m_run);
  m_issues->setRun(m_run);
  if (m_run) {
    m_recent->add(path);
    if (!m_reselectTask.empty()) {
      const int row = m_run->findRow(m_reselectTask, m_reselectCandidate);
      if (row >= 0) m_tasks->setCurrentRow(row);
    }
    statusBar()->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)), 4000);
    if (m_issues->issueCount() > 0 && m_run->run().errorCount() > 0) m_issuesDock->raise();
  }
  m_reselectTask.clear();
  showCurrentRow(m_tasks->currentRow());
  updateTitle();
  updateStatus();
  emit runShown();
}

void MainWindow::showFlags(const std::shared_ptr<const LoadedRun>& run) {
  setLoadingUi(false);
  if (run != m_run) return;
  m_tasks->refreshFlags();
  m_code->refreshFlags();
  m_charts->refreshFlags();
  m_flags->showRow(m_run, m_tasks->currentRow());
  m_issues->setRun(m_run);
  updateStatus();
  emit flagsShown();
}

void MainWindow::showCurrentRow(int row) {
  m_edits->flush();
  m_code->showRow(m_run, row);
  showRuntimeFlagsOnCode();
  restoreEdit(row);
  m_analysis->showRow(m_run, row);
  m_flags->showRow(m_run, row);
  m_measurements->showRow(m_run, m_history, row);
  showProblemsOfShownProgram();
  const bool program = m_code->hasProgram();
  m_runAction->setEnabled(program);
  m_editAction->setEnabled(program);
  m_revertAction->setEnabled(program);
}

void MainWindow::showPane(Pane pane) {
  QDockWidget* dock = pane == Pane::Tasks          ? m_tasksDock
                      : pane == Pane::Analysis     ? m_analysisDock
                      : pane == Pane::Flags        ? m_flagsDock
                      : pane == Pane::Issues       ? m_issuesDock
                      : pane == Pane::Measurements ? m_measurementsDock
                                                   : nullptr;
  if (dock) {
    dock->show();
    dock->raise();
  } else {
    m_center->setCurrentWidget(pane == Pane::Code ? static_cast<QWidget*>(m_code) : m_charts);
  }
  paneWidget(pane)->setFocus(Qt::ShortcutFocusReason);
}

QWidget* MainWindow::paneWidget(Pane pane) const {
  switch (pane) {
    case Pane::Tasks:
      return m_tasks->view();
    case Pane::Code:
      return m_code->candidateEditor();
    case Pane::Analysis:
      return m_analysis;
    case Pane::Charts:
      return m_charts;
    case Pane::Flags:
      return m_flags->view();
    case Pane::Issues:
      return m_issues->view();
    case Pane::Measurements:
      return m_measurements->table();
  }
  return nullptr;
}

void MainWindow::updateStatus() {
  m_counts->setText(m_tasks->summaryText());
  const int issues = m_issues->issueCount();
  m_issueCount->setVisible(issues > 0);
  m_issueCount->setText(
      QStringLiteral("<a href='#issues'>%1</a>").arg(counted(issues, tr("load issue"), tr("load issues"))));
}

void MainWindow::updateTitle() {
  if (!m_run) {
    setWindowTitle(tr("KernelScope"));
    setWindowFilePath({});
    return;
  }
  const QString file = QFileInfo(m_path).fileName();
  const QString title = QString::fromStdString(m_run->run().title);
  setWindowFilePath(m_path);
  setWindowTitle(title.isEmpty() || title == file ? tr("%1 — KernelScope").arg(file)
                                                  : tr("%1 (%2) — KernelScope").arg(title, file));
}

void MainWindow::rebuildRecentMenu() {
  m_recentMenu->clear();
  const QStringList files = m_recent->files();
  for (int i = 0; i < files.size(); ++i) {
    const QString& path = files[i];
    QAction* action = m_recentMenu->addAction(
        QStringLiteral("&%1  %2").arg(i < 9 ? QString::number(i + 1) : QStringLiteral("1&0"),
                                      QDir::toNativeSeparators(path)),
        this, [this, path] { openPath(path); });
    action->setData(path);
  }
  if (!files.isEmpty()) m_recentMenu->addSeparator();
  QAction* clear = m_recentMenu->addAction(tr("Clear Menu"), m_recent, &RecentFiles::clear);
  clear->setEnabled(!files.isEmpty());
}

void MainWindow::showLoadFailure(const QString& path, const QString& message) {
  setLoadingUi(false);
  statusBar()->showMessage(tr("Could not open %1").arg(QDir::toNativeSeparators(path)), 6000);
  if (!QFileInfo::exists(path)) m_recent->remove(path);
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open file"),
                              tr("KernelScope could not open\n%1").arg(QDir::toNativeSeparators(path)),
                              QMessageBox::Ok, this);
  box->setObjectName(QStringLiteral("loadErrorDialog"));
  box->setInformativeText(message.isEmpty() ? tr("No reason was given.") : message);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::setLoadingUi(bool visible) {
  m_progress->setVisible(visible);
  m_cancel->setVisible(visible);
  if (!visible) m_progress->reset();
}

void MainWindow::chooseFile() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open Run"), QSettings().value(kDirectoryKey, QDir::homePath()).toString(),
      tr("Runs and kernels (*.jsonl *.json *.cu *.cuh);;All files (*)"));
  if (path.isEmpty()) return;
  QSettings().setValue(kDirectoryKey, QFileInfo(path).absolutePath());
  openPath(path);
}

void MainWindow::chooseFolder() {
  const QString path = QFileDialog::getExistingDirectory(
      this, tr("Open KernelBench Folder"), QSettings().value(kDirectoryKey, QDir::homePath()).toString());
  if (path.isEmpty()) return;
  QSettings().setValue(kDirectoryKey, path);
  openPath(path);
}

void MainWindow::restoreSettings() {
  QSettings settings;
  if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) resize(1500, 940);
  restoreState(settings.value(kStateKey).toByteArray(), kStateVersion);
  m_code->restoreState(settings.value(kCodeStateKey).toByteArray());
  m_center->setCurrentIndex(settings.value(kCenterTabKey, 0).toInt());
  m_charts->setBaseline(settings.value(kBaselineKey).toString());
  m_runSettings->restoreState(settings.value(kRunSettingsKey).toByteArray());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState(kStateVersion));
  settings.setValue(kCodeStateKey, m_code->saveState());
  settings.setValue(kCenterTabKey, m_center->currentIndex());
  if (!m_charts->baseline().isEmpty()) settings.setValue(kBaselineKey, m_charts->baseline());
  settings.setValue(kRunSettingsKey, m_runSettings->saveState());
}

void MainWindow::closeEvent(QCloseEvent* event) {
  m_loader->cancel();
  m_edits->flush();
  saveSettings();
  event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && urls.first().isLocalFile()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return;
  event->acceptProposedAction();
  openPath(urls.first().toLocalFile());
}

}  // namespace ks
