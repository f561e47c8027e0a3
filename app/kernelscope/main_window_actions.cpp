// MainWindow's commands: menus, actions, the Run toolbar, the file choosers and what the actions do (run,
// reload, show a pane), apart from the window's layout and wiring (main_window.cpp).
#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QCompleter>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <memory>

#include "app/kernelscope/compile_command.h"
#include "app/kernelscope/docs_location.h"
#include "app/kernelscope/main_window.h"
#include "app/kernelscope/recent_files.h"
#include "app/kernelscope/repair_command.h"
#include "app/kernelscope/report_export.h"
#include "app/kernelscope/run_controller.h"
#include "app/kernelscope/run_loader.h"
#include "app/kernelscope/status_bar.h"
#include "views/charts/charts_view.h"
#include "views/charts/roofline_view.h"
#include "views/logic/counted.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/item_models/candidate_filter_proxy.h"
#include "views/widgets/analysis_view.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/docs_browser.h"
#include "views/widgets/flags_view.h"
#include "views/widgets/load_issues_view.h"
#include "views/widgets/measurements_view.h"
#include "views/widgets/presentation_view.h"
#include "views/widgets/run_result_view.h"
#include "views/widgets/run_settings_bar.h"
#include "views/widgets/search_tree_canvas.h"
#include "views/widgets/search_tree_view.h"
#include "views/widgets/shape_map_canvas.h"
#include "views/widgets/shape_map_view.h"
#include "views/widgets/shortcuts_dialog.h"
#include "views/widgets/task_table.h"

namespace ks {
namespace {

const QString kDirectoryKey = QStringLiteral("lastDirectory");

}  // namespace

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  QAction* open = file->addAction(style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open…"), this,
                                  &MainWindow::chooseFile);
  open->setShortcut(QKeySequence::Open);
  open->setStatusTip(tr("Open a CUDA-L1 release, a KernelScope run or a .cu kernel"));
  QAction* folder = file->addAction(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("Open &Folder…"), this,
                                    &MainWindow::chooseFolder);
  folder->setStatusTip(
      tr("Open a KernelBench folder or KernelBench run (runs/<name>), a CUDA-L2 release (or one of its "
         "kernel folders) or a good-kernels folder"));
  folder->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  m_recentMenu = file->addMenu(tr("Open &Recent"));
  m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
  QAction* reloadAction = file->addAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Reload"),
                                          this, &MainWindow::reload);
  reloadAction->setObjectName(QStringLiteral("reloadAction"));
  reloadAction->setShortcut(QKeySequence::Refresh);
  file->addSeparator();
  // The open run as `kscope report` writes it (HTML or PDF by the file's suffix).
  QAction* exportAction = file->addAction(tr("&Export Report…"), this, [this] {
    if (const QString message = chooseAndExportReport(this, *m_open, false); !message.isEmpty())
      m_status->showMessage(message, 15000);
  });
  exportAction->setObjectName(QStringLiteral("exportReportAction"));
  exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
  exportAction->setStatusTip(tr("Write the run's summary, charts and every candidate as HTML or PDF"));
  QAction* exportOne = file->addAction(tr("Export &Current Candidate…"), this, [this] {
    if (const QString message = chooseAndExportReport(this, *m_open, true); !message.isEmpty())
      m_status->showMessage(message, 15000);
  });
  exportOne->setObjectName(QStringLiteral("exportCandidateAction"));
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
  m_runAction->setIconText(tr("Run"));  // the toolbar's short text: the bar fits a 1024-px window
  m_runAction->setShortcut(QKeySequence(Qt::Key_F9));
  m_runAction->setStatusTip(
      tr("Build, check and time the selected candidate on this machine, as shown (an edit included); "
         "without a GPU (Device Auto), a program that builds CUDA is compiled with nvcc instead (as F7)"));
  m_runAllAction = runMenu->addAction(style()->standardIcon(QStyle::SP_MediaSeekForward),
                                      tr("Run &All Visible"), this, &MainWindow::runAllVisible);
  m_runAllAction->setObjectName(QStringLiteral("runAllAction"));
  m_runAllAction->setIconText(tr("Run All"));
  m_runAllAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F9));
  m_runAllAction->setStatusTip(tr("Queue the recorded program of every candidate the task list shows"));
  m_cancelRunsAction = runMenu->addAction(style()->standardIcon(QStyle::SP_MediaStop), tr("&Cancel Runs"),
                                          m_runs, &RunController::cancel);
  m_cancelRunsAction->setObjectName(QStringLiteral("cancelRunsAction"));
  m_cancelRunsAction->setIconText(tr("Cancel"));
  m_cancelRunsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F9));
  m_cancelRunsAction->setEnabled(false);
  runMenu->addSeparator();
  m_compile = new CompileCommand(m_code, m_open, this);
  m_status->followCompile(m_compile);
  runMenu->addAction(m_compile->compileAction());
  runMenu->addAction(m_compile->archAction());
  connect(m_compile, &CompileCommand::message, this,
          [this](const QString& text) { m_status->showMessage(text, 15000); });
  connect(m_compile, &CompileCommand::finished, this, [this] { showPane(Pane::Code); });
  m_repair = new RepairCommand(m_code, m_open, this);
  runMenu->addAction(m_repair->action());
  connect(m_measurements->resultView(), &RunResultView::repairRequested, m_repair, &RepairCommand::trigger);
  connect(m_repair, &RepairCommand::message, this,
          [this](const QString& text) { m_status->showMessage(text, 10000); });
  connect(m_repair, &RepairCommand::applied, this, [this] { showPane(Pane::Code); });

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
                                            {Pane::Measurements, tr("&Measurements")},
                                            {Pane::Shapes, tr("Sha&pes (GEMM)")},
                                            {Pane::Roofline, tr("R&oofline (GEMM)")},
                                            {Pane::Search, tr("Sea&rch Tree")}};
  for (const auto& [pane, title] : panes) {
    QAction* action = view->addAction(title, this, [this, pane = pane] { showPane(pane); });
    action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_0 + static_cast<int>(pane))));
  }
  view->addSeparator();
  QAction* sync = view->addAction(tr("&Synchronized Scrolling"));
  sync->setCheckable(true);
  sync->setChecked(m_code->isSyncScrolling());
  connect(sync, &QAction::toggled, m_code, &CodeCompareView::setSyncScrolling);
  QAction* resetLayoutAction = view->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
  resetLayoutAction->setObjectName(QStringLiteral("resetLayoutAction"));
  resetLayoutAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
  resetLayoutAction->setStatusTip(
      tr("Put every pane back where it opens first, at its default size, and forget the saved layout"));
  // The shape map's choices are what to show, not where: a separate reset, so that tidying the panes
  // does not lose them.
  QAction* resetShapes =
      view->addAction(tr("R&eset Shape Map Choices"), m_shapes, &ShapeMapView::resetChoices);
  resetShapes->setObjectName(QStringLiteral("resetShapesAction"));
  resetShapes->setStatusTip(tr("Recorded speedups over the run's first baseline and mode, every K"));
  // Presentation mode over the run's chosen candidates (its sidecar deck).
  view->addSeparator();
  QAction* present = view->addAction(tr("&Presentation"), this, [this] {
    if (!m_presentation->start())
      m_status->showMessage(tr("Presentation: open a run and select a candidate, or add candidates to the slides"),
                            8000);
  });
  present->setObjectName(QStringLiteral("presentationAction"));
  present->setShortcut(QKeySequence(Qt::Key_F11));
  present->setStatusTip(tr("Full screen, one slide per chosen candidate; arrow keys step, Esc leaves"));
  QAction* addSlide = view->addAction(tr("&Add Candidate to Slides"), this, [this] {
    QString error;
    if (m_presentation->addRow(m_open->currentRow(), &error))
      m_status->showMessage(tr("%1 slides, saved in %2")
                                .arg(m_presentation->deck().slides().size())
                                .arg(SlideDeck::sidecarPath(m_open->path())),
                            8000);
    else
      m_status->showMessage(error.isEmpty() ? tr("Select a candidate to add it to the slides") : error, 8000);
  });
  addSlide->setObjectName(QStringLiteral("addSlideAction"));
  addSlide->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F11));
  QAction* removeSlide = view->addAction(tr("Remo&ve Candidate from Slides"), this, [this] {
    QString error;
    if (m_presentation->removeRow(m_open->currentRow(), &error))
      m_status->showMessage(tr("%1 slides left").arg(m_presentation->deck().slides().size()), 8000);
    else if (!error.isEmpty())
      m_status->showMessage(error, 8000);
  });
  removeSlide->setObjectName(QStringLiteral("removeSlideAction"));
  QMenu* panels = view->addMenu(tr("&Panels"));
  for (QDockWidget* dock : {m_tasksDock, m_analysisDock, m_measurementsDock, m_flagsDock, m_issuesDock})
    panels->addAction(dock->toggleViewAction());
  panels->addAction(m_runBar->toggleViewAction());

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  QAction* docs = help->addAction(tr("&Documentation"), this, [this] {
    const QString folder = documentationFolder();
    if (folder.isEmpty()) {
      m_status->showMessage(tr("Documentation: no docs folder found beside the program; set KSCOPE_DOCS_DIR "
                               "to a KernelScope docs/ folder"),
                            10000);
      return;
    }
    auto* browser = new DocsBrowser(folder, this);
    browser->setAttribute(Qt::WA_DeleteOnClose);
    browser->show();
  });
  docs->setObjectName(QStringLiteral("documentationAction"));
  docs->setShortcut(QKeySequence::HelpContents);
  docs->setStatusTip(tr("Read KernelScope's documents: the design, formats, hack families, the CLI"));
  QAction* keys = help->addAction(tr("&Keyboard Shortcuts"), this, [this] {
    auto* dialog = new ShortcutsDialog(menuBar(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
  });
  keys->setObjectName(QStringLiteral("shortcutsAction"));
  keys->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
  help->addSeparator();
  help->addAction(tr("&About KernelScope"), this, [this] {
    QMessageBox::about(this, tr("About KernelScope"),
                       tr("<h3>KernelScope %1</h3><p>An explorer for GPU kernels generated by RL systems and "
                          "their claimed speedups. Recorded numbers are claims; flags show the evidence "
                          "against them.</p><p>Qt %2</p>")
                           .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
  });
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

QString MainWindow::dialogFolder() const {
  // The open file's folder first (the dialogs started in the home folder), then the last one used.
  if (!m_open->path().isEmpty()) {
    const QFileInfo open(m_open->path());
    return open.isDir() ? open.absoluteFilePath() : open.absolutePath();
  }
  return QSettings().value(kDirectoryKey, QDir::homePath()).toString();
}

void MainWindow::chooseFile() {
  QString path = QFileDialog::getOpenFileName(this, tr("Open Run"), dialogFolder(),
                                              tr("Runs, kernels and results (*.jsonl *.json *.cu *.cuh "
                                                 "*.csv);;CUDA-L2 results (*.csv);;All files (*)"));
  if (path.isEmpty()) return;
  QSettings().setValue(kDirectoryKey, QFileInfo(path).absolutePath());
  // A CUDA-L2 results table (eval_results/*.csv) is read with its release: open the release's root.
  const QFileInfo file(path);
  if (file.suffix().compare(QStringLiteral("csv"), Qt::CaseInsensitive) == 0 &&
      file.dir().dirName() == QStringLiteral("eval_results")) {
    QDir root = file.dir();
    root.cdUp();
    path = root.absolutePath();
  }
  openPath(path);
}

QFileDialog* MainWindow::makeFolderDialog() {
  auto* dialog =
      new QFileDialog(this, tr("Open Folder (KernelBench tasks or run, CUDA-L2, good-kernels)"), dialogFolder());
  dialog->setObjectName(QStringLiteral("openFolderDialog"));
  dialog->setFileMode(QFileDialog::Directory);
  dialog->setOption(QFileDialog::ShowDirsOnly);
  // Qt's own dialog completes a typed path in a popup that takes the first Return (Return went to
  // the autocomplete, not to Open); completed inline, the first Return opens the folder.
  if (auto* edit = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")); edit && edit->completer())
    edit->completer()->setCompletionMode(QCompleter::InlineCompletion);
  return dialog;
}

void MainWindow::chooseFolder() {
  // Owned here and read after exec() returns: a dialog deleted on close would be freed by then.
  const std::unique_ptr<QFileDialog> dialog(makeFolderDialog());
  if (dialog->exec() != QDialog::Accepted) return;
  const QString path = dialog->selectedFiles().value(0);
  if (path.isEmpty()) return;
  QSettings().setValue(kDirectoryKey, path);
  openPath(path);
}

QString MainWindow::applyRunSettings() {
  m_runs->setChoices(m_runSettings->choices(),
                     {.phaseSeconds = static_cast<double>(m_runSettings->phaseLimitSeconds()),
                      .memoryGiB = static_cast<double>(m_runSettings->memoryLimitGiB())});
  return m_runs->setGpus(m_runSettings->gpus());  // a list that does not read: enqueue says it too
}

void MainWindow::runSelected() {
  applyRunSettings();
  // No GPU here and the program builds CUDA: torch would fail in its architecture detection before nvcc
  // ran, and the run would time the PyTorch fallback. Run compiles the kernel instead.
  if (m_open->currentRow() >= 0 && m_code->hasProgram() &&
      m_runs->compilesInsteadOfRunning(m_code->candidateProgram())) {
    m_compile->compileForRun();
    return;
  }
  const QString problem =
      m_runs->enqueue(m_open->run(), m_open->path(), m_open->currentRow(), m_code->candidateProgram());
  if (!problem.isEmpty()) m_status->showMessage(tr("Cannot run: %1").arg(problem), 8000);
}

void MainWindow::runAllVisible() {
  if (!m_open->run()) return;
  QList<int> rows;
  for (int p = 0; p < m_tasks->proxy()->rowCount(); ++p) rows << m_tasks->proxy()->sourceRow(p);
  const QString gpuProblem = applyRunSettings();
  const int queued = m_runs->enqueueRecorded(m_open->run(), m_open->path(), rows);
  const QString problem = !m_runs->runnerProblem().isEmpty() ? m_runs->runnerProblem() : gpuProblem;
  m_status->showMessage(
      queued > 0 ? tr("Queued %1").arg(counted(queued, tr("candidate"), tr("candidates")))
                 : (problem.isEmpty() ? tr("No candidate shown has a program to run")
                                      : tr("Cannot run: %1").arg(problem)),
      6000);
}

void MainWindow::reload() {
  if (m_open->path().isEmpty()) return;
  const int row = m_tasks->currentRow();
  m_reselectTask.clear();
  m_reselectCandidate.clear();
  if (m_open->run() && row >= 0) {
    m_reselectTask = m_open->run()->task(row).key();
    if (const Candidate* c = m_open->run()->candidate(row)) m_reselectCandidate = c->id;
  }
  m_loader->open(m_open->path());
}

void MainWindow::showPane(Pane pane) {
  QDockWidget* dock = pane == Pane::Tasks          ? m_tasksDock
                      : pane == Pane::Analysis     ? m_analysisDock
                      : pane == Pane::Flags        ? m_flagsDock
                      : pane == Pane::Issues       ? m_issuesDock
                      : pane == Pane::Measurements ? m_measurementsDock
                                                   : nullptr;
  if (pane == Pane::Shapes || pane == Pane::Roofline) {
    QWidget* tab = pane == Pane::Shapes ? static_cast<QWidget*>(m_shapes) : m_roofline;
    if (!m_center->isTabVisible(m_center->indexOf(tab))) {
      m_status->showMessage(m_open->run()
                                ? tr("The open run has no GEMM tasks: the shape map and the roofline "
                                     "show matrix-multiply releases (CUDA-L2)")
                                : tr("Open a CUDA-L2 release to see the shape map and the roofline"),
                            6000);
      return;
    }
    m_center->setCurrentWidget(tab);
  } else if (dock) {
    dock->show();
    dock->raise();
  } else {
    m_center->setCurrentWidget(pane == Pane::Code     ? static_cast<QWidget*>(m_code)
                               : pane == Pane::Search ? static_cast<QWidget*>(m_search)
                                                      : m_charts);
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
    case Pane::Shapes:
      return m_shapes->canvas();
    case Pane::Roofline:
      return m_roofline->chartView();
    case Pane::Search:
      return m_search->canvas();
  }
  return nullptr;
}

}  // namespace ks
