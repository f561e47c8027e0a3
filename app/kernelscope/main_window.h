#pragma once
// The explorer's window: the task list (dock), code compare and charts (central tabs), analysis and
// measurements (docks), flags and load issues (docks), and the Run toolbar. The open run is one OpenRun that
// every view observes (docs/architecture.md, "How the GUI is wired"); the window lays the views out and turns
// the controllers' answers into changes of it — RunLoader and RecentFiles (opening files), RunController
// (re-runs), HistoryLoader (the results history of the open run) and EditAutosave (edits of candidate
// programs). Its menus and actions are in main_window_actions.cpp, its status bar in status_bar.h; it
// remembers its layout in QSettings.
#include <QMainWindow>
#include <QSize>
#include <memory>
#include <string>

class QDockWidget;
class QFileDialog;
class QMenu;
class QTabWidget;
class QToolBar;

namespace ks {

class AnalysisView;
class ChartsView;
class PresentationView;
class CodeCompareView;
class CompileCommand;
class EditAutosave;
class FlagsView;
class RepairCommand;
class HistoryLoader;
class LoadIssuesView;
class LoadedRun;
class MeasuredHistory;
class MeasurementsView;
class OpenRun;
class RecentFiles;
class RunController;
class RunLoader;
class RooflineView;
class RunSettingsBar;
class SearchTreeView;
class ShapeMapView;
class StatusBar;
class TaskTable;
struct RunJob;
namespace runs {
struct MeasuredRun;
}

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  // Ctrl+<number> shows each (View menu). Shapes and Roofline are tabs shown only for runs with GEMM tasks.
  // Search (Ctrl+9) is the search tree tab, shown for every run.
  enum class Pane { Tasks, Code, Analysis, Charts, Flags, Issues, Measurements, Shapes, Roofline, Search };

  // The least size of each pane. Their sum fits kSmallestScreen, the smallest window the layout
  // is made for; a restored layout that does not fit it, or leaves a pane below its least size, is replaced
  // by the default one.
  static constexpr QSize kSmallestScreen{1024, 700};
  static constexpr QSize kMinimumCenter{420, 220};
  static constexpr QSize kMinimumTasks{260, 200};
  static constexpr QSize kMinimumAnalysis{220, 90};
  static constexpr QSize kMinimumBottomPane{240, 90};  // Flags, Measurements, Load issues

  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Opens a run file or KernelBench folder off the GUI thread; the current run stays until it loads.
  void openPath(const QString& path);
  QString currentPath() const;
  OpenRun* openRun() const { return m_open; }
  const std::shared_ptr<const LoadedRun>& run() const;  // the open run's snapshot, replaced as flags arrive

  TaskTable* taskTable() const { return m_tasks; }
  CodeCompareView* codeView() const { return m_code; }
  AnalysisView* analysisView() const { return m_analysis; }
  ChartsView* chartsView() const { return m_charts; }
  PresentationView* presentationView() const { return m_presentation; }
  ShapeMapView* shapeMapView() const { return m_shapes; }
  SearchTreeView* searchTreeView() const { return m_search; }
  RooflineView* rooflineView() const { return m_roofline; }
  FlagsView* flagsView() const { return m_flags; }
  LoadIssuesView* issuesView() const { return m_issues; }
  RunLoader* loader() const { return m_loader; }
  RecentFiles* recentFiles() const { return m_recent; }
  MeasurementsView* measurementsView() const { return m_measurements; }
  RunSettingsBar* runSettings() const { return m_runSettings; }
  RunController* runController() const { return m_runs; }
  HistoryLoader* historyLoader() const { return m_historyLoader; }
  EditAutosave* editAutosave() const { return m_edits; }
  const std::shared_ptr<const MeasuredHistory>& history() const;
  QWidget* paneWidget(Pane pane) const;
  // File ▸ Open Folder's dialog, not yet shown, owned by the caller: in the open file's folder, a typed path
  // completed inline so that Return opens it.
  QFileDialog* makeFolderDialog();
  // The first window's size for a screen whose free area is `available`: `wanted` where it fits (less the
  // frame), else the free area, and at least `least` as far as the screen holds it.
  static QSize fittedSize(QSize wanted, QSize available, QSize least);
  // True when the window fits kSmallestScreen and every shown pane has at least its least size; else
  // false, with the reason in `why`.
  bool layoutUsable(QString* why = nullptr) const;

 public slots:
  void showRun(const QString& path, std::shared_ptr<const ks::LoadedRun> run);
  void showPane(ks::MainWindow::Pane pane);
  void reload();
  void runSelected();    // the selected candidate, as shown (an edit included)
  void runAllVisible();  // the recorded programs of every candidate the task list shows, in its order
  // View ▸ Reset Layout: the default docks, splitter and size; forgets the saved geometry and layout.
  void resetLayout();

 signals:
  void runShown();      // after showRun has reached every view
  void flagsShown();    // after the static checks' flags reached every view
  void historyShown();  // after the results history of the open run reached every view
  void runFinished();   // after a re-run's result reached every view
  void layoutReset();   // a restored layout was not usable and the default replaced it

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  QDockWidget* addDock(const QString& title, const QString& objectName, QWidget* widget,
                       Qt::DockWidgetArea area);
  void createMenus();
  void connectViews();
  void connectOpenRun();
  void connectControllers();
  void opened();  // after the views took a new run: its history, recent files, reselection, title
  void showHistory(const std::shared_ptr<const LoadedRun>& run, std::shared_ptr<MeasuredHistory> history,
                   const QString& error);
  void showRunResult(const RunJob& job, const runs::MeasuredRun& run, const QString& storeError);
  QString applyRunSettings();  // the Run toolbar's choices, for the runs queued next; why the GPUs do not read
  void restoreEdit(int row);
  void showFlags(const std::shared_ptr<const LoadedRun>& run);
  void updateStatus();
  void updateTitle();
  void updateGemmTabs();    // the Shapes and Roofline tabs, shown for runs with GEMM tasks
  void selectRow(int row);  // a view's click on a task: the task list selects it
  void rebuildRecentMenu();
  void showLoadFailure(const QString& path, const QString& message);
  QString dialogFolder() const;  // where the Open dialogs start: the open file's folder, else the last used
  void chooseFile();
  void chooseFolder();
  void applyDefaultLayout();
  QSize defaultSize() const;  // the first window's size: the default, bounded by the screen's free area
  void restoreSettings();
  void saveSettings() const;

  OpenRun* m_open;
  std::string m_reselectTask;  // task key and candidate id to select again after a reload
  std::string m_reselectCandidate;

  RunLoader* m_loader;
  RecentFiles* m_recent;
  RunController* m_runs;
  HistoryLoader* m_historyLoader;
  EditAutosave* m_edits;
  RepairCommand* m_repair = nullptr;
  CompileCommand* m_compile = nullptr;
  TaskTable* m_tasks;
  CodeCompareView* m_code;
  AnalysisView* m_analysis;
  ChartsView* m_charts;
  PresentationView* m_presentation;  // its own full-screen window (View > Presentation)
  FlagsView* m_flags;
  LoadIssuesView* m_issues;
  MeasurementsView* m_measurements;
  RunSettingsBar* m_runSettings;
  ShapeMapView* m_shapes;
  RooflineView* m_roofline;
  SearchTreeView* m_search;
  QTabWidget* m_center;
  QDockWidget* m_tasksDock = nullptr;
  QDockWidget* m_analysisDock = nullptr;
  QDockWidget* m_flagsDock = nullptr;
  QDockWidget* m_issuesDock = nullptr;
  QDockWidget* m_measurementsDock = nullptr;
  QToolBar* m_runBar = nullptr;
  QAction* m_runAction = nullptr;
  QAction* m_runAllAction = nullptr;
  QAction* m_cancelRunsAction = nullptr;
  QAction* m_editAction = nullptr;
  QAction* m_revertAction = nullptr;
  QMenu* m_recentMenu = nullptr;
  bool m_checkRestoredLayout = false;  // a saved layout was restored: check it once it is shown
  StatusBar* m_status;
};

}  // namespace ks
