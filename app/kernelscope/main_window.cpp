#include "app/kernelscope/main_window.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QShowEvent>
#include <QSplitter>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>

#include "app/kernelscope/edit_autosave.h"
#include "app/kernelscope/history_loader.h"
#include "app/kernelscope/recent_files.h"
#include "app/kernelscope/run_controller.h"
#include "app/kernelscope/run_loader.h"
#include "app/kernelscope/status_bar.h"
#include "core/store/store_path.h"
#include "views/charts/charts_view.h"
#include "views/charts/roofline_view.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_format.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/logic/speedup_trust.h"
#include "views/logic/stage_timer.h"
#include "views/widgets/analysis_view.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/flags_view.h"
#include "views/widgets/load_issues_view.h"
#include "views/widgets/measurements_view.h"
#include "views/widgets/presentation_view.h"
#include "views/widgets/run_settings_bar.h"
#include "views/widgets/search_tree_view.h"
#include "views/widgets/shape_map_view.h"
#include "views/widgets/task_table.h"

// Q_INIT_RESOURCE must be called from the global namespace; the resources live in this static library.
static void initResources() { Q_INIT_RESOURCE(kernelscope); }

namespace ks {
namespace {

// 2: the default layout changed (Analysis below the code, beside Flags); a state saved by an older
// version is not restored, so the window opens in the new default.
constexpr int kStateVersion = 2;
const QSize kDefaultSize(1500, 940);
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kCodeStateKey = QStringLiteral("mainWindow/codeCompare");
const QString kCenterTabKey = QStringLiteral("mainWindow/centerTab");
const QString kSeriesKey = QStringLiteral("speedup/series");  // baseline, mode
const QString kRunSettingsKey = QStringLiteral("run/settings");
const QString kShapesKey = QStringLiteral("shapes/choices");

}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_open(new OpenRun(this)),
      m_loader(new RunLoader(this)),
      m_recent(new RecentFiles(this)),
      m_runs(new RunController({}, store::defaultStorePath(), this)),
      m_historyLoader(new HistoryLoader(store::defaultStorePath(), this)),
      m_edits(new EditAutosave({}, this)),
      m_tasks(new TaskTable(this)),
      m_code(new CodeCompareView(this)),
      m_analysis(new AnalysisView(this)),
      m_charts(new ChartsView(this)),
      m_presentation(new PresentationView(this)),
      m_flags(new FlagsView(this)),
      m_issues(new LoadIssuesView(this)),
      m_measurements(new MeasurementsView(this)),
      m_runSettings(new RunSettingsBar(this)),
      m_shapes(new ShapeMapView(this)),
      m_roofline(new RooflineView(this)),
      m_search(new SearchTreeView(this)),
      m_center(new QTabWidget(this)),
      m_status(new StatusBar(m_loader, m_runs, this)) {
  initResources();
  setObjectName(QStringLiteral("mainWindow"));
  setWindowIcon(QIcon(QStringLiteral(":/icons/kernelscope.png")));
  setAcceptDrops(true);
  setDockOptions(AnimatedDocks | AllowTabbedDocks | AllowNestedDocks);

  m_center->setObjectName(QStringLiteral("centerTabs"));
  m_center->setDocumentMode(true);
  m_center->addTab(m_code, tr("Code"));
  m_center->addTab(m_charts, tr("Charts"));
  m_center->addTab(m_shapes, tr("Shapes"));
  m_center->addTab(m_roofline, tr("Roofline"));
  m_center->addTab(m_search, tr("Search"));
  setCentralWidget(m_center);

  m_tasksDock = addDock(tr("Tasks"), QStringLiteral("tasksDock"), m_tasks, Qt::LeftDockWidgetArea);
  m_analysisDock =
      addDock(tr("Analysis"), QStringLiteral("analysisDock"), m_analysis, Qt::BottomDockWidgetArea);
  m_flagsDock = addDock(tr("Flags"), QStringLiteral("flagsDock"), m_flags, Qt::BottomDockWidgetArea);
  m_issuesDock = addDock(tr("Load issues"), QStringLiteral("issuesDock"), m_issues, Qt::BottomDockWidgetArea);
  m_measurementsDock = addDock(tr("Measurements"), QStringLiteral("measurementsDock"), m_measurements,
                               Qt::BottomDockWidgetArea);
  // Every pane keeps a usable size: the window cannot be made, nor a splitter dragged, smaller
  // than these, and they add up to less than 1024 × 700.
  m_center->setMinimumSize(kMinimumCenter);
  m_tasks->setMinimumSize(kMinimumTasks);
  m_analysis->setMinimumSize(kMinimumAnalysis);
  for (QWidget* pane : std::initializer_list<QWidget*>{m_flags, m_issues, m_measurements})
    pane->setMinimumSize(kMinimumBottomPane);

  setStatusBar(m_status);
  setStatusBar(m_status);
  connect(m_status, &StatusBar::issuesClicked, this, [this] { showPane(Pane::Issues); });
  m_tasks->observe(m_open);
  m_code->observe(m_open);
  m_analysis->observe(m_open);
  m_charts->observe(m_open);
  m_flags->observe(m_open);
  m_issues->observe(m_open);
  m_measurements->observe(m_open);
  m_shapes->observe(m_open);
  m_roofline->observe(m_open);
  m_presentation->observe(m_open);
  m_search->observe(m_open);

  createMenus();
  connectViews();
  connectOpenRun();
  connectControllers();
  applyDefaultLayout();
  restoreSettings();
  showRun({}, nullptr);
}

MainWindow::~MainWindow() = default;

QString MainWindow::currentPath() const { return m_open->path(); }
const std::shared_ptr<const LoadedRun>& MainWindow::run() const { return m_open->run(); }
const std::shared_ptr<const MeasuredHistory>& MainWindow::history() const { return m_open->history(); }

QDockWidget* MainWindow::addDock(const QString& title, const QString& objectName, QWidget* widget,
                                 Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(objectName);  // saveState/restoreState find docks by name
  dock->setWidget(widget);
  addDockWidget(area, dock);
  return dock;
}

void MainWindow::connectViews() {
  connect(m_tasks, &TaskTable::currentRowChanged, this, [this](int row) {
    m_edits->flush();  // the edit of the row left, before the views show the next one
    m_open->setCurrentRow(row);
  });
  connect(m_tasks, &TaskTable::shownCountChanged, this, &MainWindow::updateStatus);
  connect(m_tasks, &TaskTable::message, this,
          [this](const QString& text) { m_status->showMessage(text, 6000); });
  connect(m_charts, &ChartsView::rowsSelected, m_tasks, &TaskTable::selectRows);
  // One series for every view: the vs box's or the charts' choice becomes the open run's (seriesChanged).
  connect(m_tasks, &TaskTable::seriesChosen, m_open, &OpenRun::setSeries);
  connect(m_charts, &ChartsView::seriesChosen, m_open, &OpenRun::setSeries);
  connect(m_shapes, &ShapeMapView::rowSelected, this, &MainWindow::selectRow);
  connect(m_roofline, &RooflineView::rowSelected, this, &MainWindow::selectRow);
  connect(m_search, &SearchTreeView::rowSelected, this, &MainWindow::selectRow);
  connect(m_charts, &ChartsView::familyChosen, this, [this](const QString& family, const QList<int>& rows) {
    if (!m_tasks->filterByFamily(family))
      m_status->showMessage(tr("No candidate raises %1").arg(family), 6000);
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
          [this](const QString& message) { m_status->showMessage(message, 15000); });
}

void MainWindow::connectOpenRun() {
  // After the views (they subscribed in the constructor): what the window itself does with each change.
  connect(m_open, &OpenRun::opened, this, &MainWindow::opened);
  connect(m_open, &OpenRun::currentChanged, this, [this](int row) {
    restoreEdit(row);
    const bool program = m_code->hasProgram();
    // Run is disabled, with the reason in its tooltip, for a program that cannot run at all (a .cu
    // without a reference was enabled and said why only in the status bar once chosen).
    const QString why =
        program ? m_runs->whyNotRunnable(m_open->run(), row, m_code->candidateProgram()) : QString();
    m_runAction->setEnabled(program && why.isEmpty());
    m_runAction->setToolTip(why.isEmpty() ? m_runAction->text().remove('&') : tr("Cannot run: %1").arg(why));
    m_editAction->setEnabled(program);
    m_revertAction->setEnabled(program);
  });
  connect(m_open, &OpenRun::runAdded, this, [this](int row) {
    updateStatus();  // the flagged count includes runtime flags
    if (row != m_open->currentRow()) return;
    m_measurementsDock->show();
    m_measurementsDock->raise();
  });
}

void MainWindow::connectControllers() {
  connect(m_loader, &RunLoader::loaded, this, &MainWindow::showRun);
  connect(m_loader, &RunLoader::flagsChecked, this, &MainWindow::showFlags);
  connect(m_loader, &RunLoader::failed, this, &MainWindow::showLoadFailure);
  connect(m_loader, &RunLoader::canceled, this, [this](const QString& path) {
    m_status->setLoading(false);
    m_status->showMessage(path == m_open->path()
                              ? tr("Stopped the static checks: flags not checked (F5 runs them)")
                              : tr("Stopped opening %1").arg(QDir::toNativeSeparators(path)),
                          8000);
  });
  connect(m_historyLoader, &HistoryLoader::loaded, this, &MainWindow::showHistory);
  connect(m_runs, &RunController::environmentChanged, m_runSettings, &RunSettingsBar::setEnvironment);
  connect(m_runs, &RunController::runnerUnavailable, m_runSettings, &RunSettingsBar::setRunnerProblem);
  connect(m_runs, &RunController::finished, this, &MainWindow::showRunResult);
  connect(m_status, &StatusBar::runsActive, m_cancelRunsAction, &QAction::setEnabled);
  if (!m_runs->runnerProblem().isEmpty()) m_runSettings->setRunnerProblem(m_runs->runnerProblem());
}

void MainWindow::showRunResult(const RunJob& job, const runs::MeasuredRun& run, const QString& storeError) {
  const bool cancelled = run.error && run.error->kind == protocol::ErrorKind::Cancelled;
  QString message = QStringLiteral("%1: %2").arg(job.label(), trustedOutcomeText(run));
  if (run.row.speedup)
    message += QStringLiteral(" ") + speedupWithSpread(run) +
               (runTrust(run).trusted ? QString() : tr(" (not the kernel's speedup)"));
  if (!storeError.isEmpty()) message += tr(" — not recorded: %1").arg(storeError);
  m_status->showMessage(message, 10000);
  if (cancelled || !m_open->isOpen(job.run)) return;  // another file is open now: its history is read afresh
  m_open->addRun(job.row, {run, !job.edited});
  emit runFinished();
}

void MainWindow::showHistory(const std::shared_ptr<const LoadedRun>& run,
                             std::shared_ptr<MeasuredHistory> history, const QString& error) {
  if (!m_open->setHistory(run, std::move(history))) return;
  updateStatus();
  if (!error.isEmpty()) m_status->showMessage(tr("Results history not read: %1").arg(error), 10000);
  emit historyShown();
}

void MainWindow::restoreEdit(int row) {
  const Candidate* c = m_open->run() && row >= 0 ? m_open->run()->candidate(row) : nullptr;
  if (!c || !c->code) {
    m_edits->setCurrent(std::nullopt);
    return;
  }
  const EditAutosave::Key key{m_open->path(), QString::fromStdString(m_open->run()->task(row).key()),
                              QString::fromStdString(c->id)};
  m_edits->setCurrent(key);
  const auto saved = m_edits->saved(key);
  if (!saved || saved->text.toStdString() == c->code.valueOrEmpty()) return;
  const QDateTime at = saved->savedAt.toLocalTime();
  m_code->showEdit(saved->text, tr("Restored unsaved edit from %1 — Revert shows the recorded program")
                                    .arg(at.date() == QDate::currentDate()
                                             ? at.toString(QStringLiteral("HH:mm"))
                                             : at.toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
}
void MainWindow::openPath(const QString& path) {
  if (path.isEmpty()) return;
  const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
  if (absolute != m_open->path()) m_reselectTask.clear();
  m_loader->open(absolute);
}

void MainWindow::showRun(const QString& path, std::shared_ptr<const LoadedRun> run) {
  if (!m_loader->isBusy()) m_status->setLoading(false);
  m_edits->flush();
  const StageTimer timer("show: every view (OpenRun::open)");
  m_open->open(path, std::move(run));  // the views follow; then opened()
  emit runShown();
}

void MainWindow::opened() {
  const StageTimer timer("view: main window (history, recent files, counts)");
  const std::shared_ptr<const LoadedRun>& run = m_open->run();
  m_historyLoader->load(m_open->path(), run);
  if (run) {
    m_recent->add(m_open->path());
    if (!m_reselectTask.empty()) {
      const int row = run->findRow(m_reselectTask, m_reselectCandidate);
      if (row >= 0) m_tasks->setCurrentRow(row);
    }
    m_status->showMessage(tr("Opened %1").arg(QDir::toNativeSeparators(m_open->path())), 4000);
    if (m_issues->issueCount() > 0 && run->run().errorCount() > 0) m_issuesDock->raise();
  }
  m_reselectTask.clear();
  updateGemmTabs();
  updateTitle();
  updateStatus();
}

void MainWindow::showFlags(const std::shared_ptr<const LoadedRun>& run) {
  m_status->setLoading(false);
  if (!m_open->setFlagged(run)) return;  // the views re-read the flags
  updateStatus();
  emit flagsShown();
}

void MainWindow::updateGemmTabs() {
  const bool gemm = m_shapes->hasGemmTasks();
  for (QWidget* tab : {static_cast<QWidget*>(m_shapes), static_cast<QWidget*>(m_roofline)})
    m_center->setTabVisible(m_center->indexOf(tab), gemm);
}

void MainWindow::selectRow(int row) {
  m_tasks->selectRows({row});  // says so when the filter hides it
  m_tasks->setCurrentRow(row);
}

void MainWindow::updateStatus() { m_status->showCounts(m_tasks->summaryText(), m_issues->issueCount()); }

void MainWindow::updateTitle() {
  if (!m_open->run()) {
    setWindowTitle(tr("KernelScope"));
    setWindowFilePath({});
    return;
  }
  const QString file = QFileInfo(m_open->path()).fileName();
  const QString title = QString::fromStdString(m_open->run()->run().title);
  setWindowFilePath(m_open->path());
  setWindowTitle(title.isEmpty() || title == file ? tr("%1 — KernelScope").arg(file)
                                                  : tr("%1 (%2) — KernelScope").arg(title, file));
}

void MainWindow::showLoadFailure(const QString& path, const QString& message) {
  m_status->setLoading(false);
  m_status->showMessage(tr("Could not open %1").arg(QDir::toNativeSeparators(path)), 6000);
  if (!QFileInfo::exists(path)) m_recent->remove(path);
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open file"),
                              tr("KernelScope could not open\n%1").arg(QDir::toNativeSeparators(path)),
                              QMessageBox::Ok, this);
  box->setObjectName(QStringLiteral("loadErrorDialog"));
  box->setInformativeText(message.isEmpty() ? tr("No reason was given.") : message);
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
}

void MainWindow::applyDefaultLayout() {
  // The task list runs the full height on the left; below the code, Analysis beside the tabbed Flags,
  // Measurements and Load issues. The code panes get the width, so the reference is readable.
  setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
  setCorner(Qt::TopLeftCorner, Qt::LeftDockWidgetArea);
  for (QDockWidget* dock : {m_tasksDock, m_analysisDock, m_flagsDock, m_issuesDock, m_measurementsDock}) {
    dock->setFloating(false);
    dock->show();
  }
  addDockWidget(Qt::LeftDockWidgetArea, m_tasksDock);
  addDockWidget(Qt::BottomDockWidgetArea, m_analysisDock);
  splitDockWidget(m_analysisDock, m_flagsDock, Qt::Horizontal);
  tabifyDockWidget(m_flagsDock, m_issuesDock);
  tabifyDockWidget(m_flagsDock, m_measurementsDock);
  m_flagsDock->raise();
  if (m_runBar) {
    addToolBar(Qt::TopToolBarArea, m_runBar);
    m_runBar->show();
  }
  const QSize size = isVisible() ? this->size() : defaultSize();
  const int width = size.width();
  const int height = size.height();
  const int tasks = std::max(kMinimumTasks.width(), width * 9 / 40);  // 340 of 1500
  const int bottom = std::max(width - tasks, 2 * kMinimumBottomPane.width());
  resizeDocks({m_tasksDock}, {tasks}, Qt::Horizontal);
  resizeDocks({m_analysisDock, m_flagsDock}, {bottom * 2 / 5, bottom * 3 / 5}, Qt::Horizontal);
  resizeDocks({m_analysisDock}, {std::max(kMinimumAnalysis.height() + 40, height / 4)}, Qt::Vertical);
  if (auto* splitter = m_code->findChild<QSplitter*>(QStringLiteral("codeSplitter"))) {
    // Reference and candidate, half each, now and as the window grows.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    const int half = std::max(splitter->width(), width - tasks) / 2;
    splitter->setSizes({half, half});
  }
}

bool MainWindow::layoutUsable(QString* why) const {
  const auto say = [why](const QString& text) {
    if (why) *why = text;
    return false;
  };
  const QSize least = minimumSizeHint();
  if (least.width() > kSmallestScreen.width() || least.height() > kSmallestScreen.height())
    return say(tr("the panes need %1 × %2 px").arg(least.width()).arg(least.height()));
  if (m_center->isVisible() &&
      (m_center->width() < kMinimumCenter.width() || m_center->height() < kMinimumCenter.height()))
    return say(tr("the code pane is %1 × %2 px").arg(m_center->width()).arg(m_center->height()));
  for (QDockWidget* dock : {m_tasksDock, m_analysisDock, m_flagsDock, m_issuesDock, m_measurementsDock}) {
    const QWidget* pane = dock->widget();
    if (!pane->isVisible() || dock->isFloating()) continue;  // closed, or behind another tab
    if (pane->width() < pane->minimumWidth() || pane->height() < pane->minimumHeight())
      return say(tr("%1 is %2 × %3 px").arg(dock->windowTitle()).arg(pane->width()).arg(pane->height()));
  }
  return true;
}

void MainWindow::resetLayout() {
  QSettings settings;
  for (const QString& key : {kGeometryKey, kStateKey, kCodeStateKey}) settings.remove(key);
  if (!isMaximized() && !isFullScreen()) resize(defaultSize());
  applyDefaultLayout();
  m_center->setCurrentWidget(m_code);
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (!m_checkRestoredLayout) return;
  m_checkRestoredLayout = false;
  // Once the restored state is laid out: a state in which a pane is unusable is never kept.
  QTimer::singleShot(0, this, [this] {
    QString why;
    if (layoutUsable(&why)) return;
    applyDefaultLayout();
    m_status->showMessage(tr("The saved layout was not usable (%1): back to the default layout").arg(why),
                          10000);
    emit layoutReset();
  });
}

QSize MainWindow::fittedSize(QSize wanted, QSize available, QSize least) {
  // The screen's free area less the window frame bounds it, but never below what the panes need.
  return wanted.boundedTo(available - QSize(16, 48)).expandedTo(least.boundedTo(available));
}

QSize MainWindow::defaultSize() const {
  // The default size where the screen has room, else the screen's free area: the first window on a
  // 1024 × 700 screen fits it whole, its status bar included.
  const QScreen* screen = this->screen();
  return screen ? fittedSize(kDefaultSize, screen->availableGeometry().size(), minimumSizeHint())
                : kDefaultSize;
}

void MainWindow::restoreSettings() {
  QSettings settings;
  if (!restoreGeometry(settings.value(kGeometryKey).toByteArray())) resize(defaultSize());
  m_checkRestoredLayout = restoreState(settings.value(kStateKey).toByteArray(), kStateVersion);
  m_code->restoreState(settings.value(kCodeStateKey).toByteArray());
  m_center->setCurrentIndex(settings.value(kCenterTabKey, 0).toInt());
  if (const QStringList series = settings.value(kSeriesKey).toStringList(); series.size() == 2)
    m_open->setPreferredSeries({series[0].toStdString(), series[1].toStdString()});
  m_runSettings->restoreState(settings.value(kRunSettingsKey).toByteArray());
  m_runs->setGpus(m_runSettings->gpus());  // the runners the first probe starts: the GPUs remembered
  m_shapes->restoreState(settings.value(kShapesKey).toByteArray());
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(kGeometryKey, saveGeometry());
  settings.setValue(kStateKey, saveState(kStateVersion));
  settings.setValue(kCodeStateKey, m_code->saveState());
  settings.setValue(kCenterTabKey, m_center->currentIndex());
  const SpeedupSeries& series = m_open->preferredSeries();
  settings.setValue(
      kSeriesKey, QStringList{QString::fromStdString(series.baseline), QString::fromStdString(series.mode)});
  settings.setValue(kRunSettingsKey, m_runSettings->saveState());
  settings.setValue(kShapesKey, m_shapes->saveState());
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
