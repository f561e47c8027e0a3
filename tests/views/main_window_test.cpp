// The window end to end: open the real CUDA-L1 release, select tasks, compare code, chart clicks select
// rows, flag clicks move the cursor, filters, recent files, malformed files and unreadable paths.
#include "app/kernelscope/main_window.h"

#include <gtest/gtest.h>

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>
#include <cmath>

#include "app/kernelscope/recent_files.h"
#include "app/kernelscope/run_loader.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/charts/charts_view.h"
#include "views/item_models/candidate_filter_proxy.h"
#include "views/item_models/flag_table_model.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/flags_view.h"
#include "views/widgets/load_issues_view.h"
#include "views/widgets/task_table.h"
#include "ks_test_paths.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::kCudaL1Release;


class MainWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window.resize(1500, 940);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
  }
  // Opens `path` and waits until the window shows it; false if it failed or took too long.
  bool open(const QString& path) {
    QSignalSpy shown(&window, &MainWindow::runShown);
    QSignalSpy failed(window.loader(), &RunLoader::failed);
    window.openPath(path);
    for (int waited = 0; waited < 60000 && shown.isEmpty() && failed.isEmpty(); waited += 20)
      QTest::qWait(20);
    return !shown.isEmpty();
  }
  bool openCudaL1() {
    if (!QFileInfo::exists(kCudaL1Release)) return false;
    return open(kCudaL1Release);
  }
  int shown() const { return window.taskTable()->shownCount(); }

  MainWindow window;
};

#define SKIP_WITHOUT_CUDA_L1()                                              \
  if (!QFileInfo::exists(kCudaL1Release))                                          \
  GTEST_SKIP() << "the CUDA-L1 release is not at " << kCudaL1Release.toStdString() \
               << " (see ../shared/datasets/README.md)"

TEST_F(MainWindowTest, OpensCudaL1AndShowsTheExactTextsOfTheSelectedTask) {
  SKIP_WITHOUT_CUDA_L1();
  ASSERT_TRUE(openCudaL1());
  const auto& run = window.run();
  ASSERT_EQ(run->rowCount(), 250);
  EXPECT_TRUE(window.windowTitle().contains("h100.jsonl"));
  const QString status = window.findChild<QLabel*>("statusCounts")->text();
  EXPECT_TRUE(status.startsWith(QStringLiteral("250 tasks · %1 with code · ").arg(run->rowsWithCode())));
  EXPECT_TRUE(status.endsWith("showing 250"));

  // The static checks finish after the run is on screen; their flags reach the table and the status bar.
  if (!run->flagsChecked()) {
    QSignalSpy flagged(&window, &MainWindow::flagsShown);
    ASSERT_TRUE(flagged.wait(60000));
  }
  EXPECT_TRUE(window.findChild<QLabel*>("statusCounts")
                  ->text()
                  .contains(QStringLiteral(" · %1 flagged · ").arg(run->rowsFlagged())));
  auto* flagFilter = window.findChild<QComboBox*>("filterFlags");
  flagFilter->setCurrentIndex(flagFilter->findData(-2));  // flagged (hack or suspicious)
  EXPECT_EQ(shown(), run->rowsFlagged());
  flagFilter->setCurrentIndex(0);

  const int row = run->findRow("L1/12", "");
  ASSERT_GE(row, 0);
  window.taskTable()->setCurrentRow(row);
  EXPECT_EQ(window.codeView()->referenceEditor()->text().toStdString(), run->task(row).referenceCode);
  ASSERT_TRUE(run->candidate(row)->code);
  EXPECT_EQ(window.codeView()->candidateProgram().toStdString(), *run->candidate(row)->code);

  // Down in the table moves to the next task and the editors follow.
  QTableView* table = window.taskTable()->view();
  table->setFocus();
  QTest::keyClick(table, Qt::Key_Down);
  const int next = window.taskTable()->currentRow();
  EXPECT_NE(next, row);
  EXPECT_EQ(window.codeView()->referenceEditor()->text().toStdString(), run->task(next).referenceCode);
}

TEST_F(MainWindowTest, HistogramCountsEveryCandidateWithASpeedupAndAClickSelectsABin) {
  SKIP_WITHOUT_CUDA_L1();
  ASSERT_TRUE(openCudaL1());
  const auto& run = window.run();
  int withSpeedup = 0;
  for (int r = 0; r < run->rowCount(); ++r)
    if (const Candidate* c = run->candidate(r); c && c->speedup() && *c->speedup() > 0) ++withSpeedup;
  ASSERT_GT(withSpeedup, 0);

  ChartsView* charts = window.chartsView();
  EXPECT_EQ(charts->baseline(), "default");
  const QList<QBarSet*> sets = charts->histogramSets();
  ASSERT_EQ(sets.size(), 3);  // slower, faster, not a win (caught hack or fallback-timed)
  double total = 0;
  for (QBarSet* set : sets)
    for (int i = 0; i < set->count(); ++i) total += set->at(i);
  EXPECT_EQ(static_cast<int>(total), withSpeedup);

  // Click the middle of the tallest bar: exactly the candidates of that bin become selected.
  window.showPane(MainWindow::Pane::Charts);
  QTest::qWait(50);
  std::size_t tallest = 0;
  for (std::size_t b = 0; b < charts->bins().size(); ++b)
    if (charts->bins()[b].rows.size() > charts->bins()[tallest].rows.size()) tallest = b;
  const auto& expected = charts->bins()[tallest].rows;
  QChartView* view = charts->histogramView();
  QChart* chart = view->chart();
  const QPointF value(static_cast<qreal>(tallest), static_cast<qreal>(expected.size()) / 2);
  const QPoint at =
      view->mapFromScene(chart->mapToScene(chart->mapToPosition(value, chart->series().first())));
  QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
  QList<int> sortedExpected(expected.begin(), expected.end());
  std::sort(sortedExpected.begin(), sortedExpected.end());
  EXPECT_EQ(window.taskTable()->selectedRows(), sortedExpected);
  EXPECT_TRUE(sortedExpected.contains(window.taskTable()->currentRow()));

  // Another baseline: another chart, with its own count.
  charts->setBaseline("torch_compile_default");
  int withCompile = 0;
  for (int r = 0; r < run->rowCount(); ++r)
    if (const Candidate* c = run->candidate(r); c && c->speedup("torch_compile_default")) ++withCompile;
  total = 0;
  for (QBarSet* set : charts->histogramSets())
    for (int i = 0; i < set->count(); ++i) total += set->at(i);
  EXPECT_EQ(static_cast<int>(total), withCompile);
}

TEST_F(MainWindowTest, CdfAndLevelClicksSelectTheirCandidates) {
  window.showRun("/tmp/synthetic-run.jsonl", test::syntheticRun());
  window.showPane(MainWindow::Pane::Charts);
  QSignalSpy selected(window.chartsView(), &ChartsView::rowsSelected);
  QChartView* cdf = window.chartsView()->cdfView();
  window.chartsView()->findChild<QTabWidget*>("chartTabs")->setCurrentWidget(cdf);
  QTest::qWait(50);
  QChart* chart = cdf->chart();
  QAbstractSeries* dots = chart->series().last();
  const auto& top = window.chartsView()->distribution().points().back();  // 17×, row e
  const QPoint at =
      cdf->mapFromScene(chart->mapToScene(chart->mapToPosition(QPointF(top.speedup, 100), dots)));
  QTest::mouseClick(cdf->viewport(), Qt::LeftButton, {}, at);
  ASSERT_EQ(selected.count(), 1);
  EXPECT_EQ(window.taskTable()->selectedRows(), QList<int>{test::kRowE});
  EXPECT_EQ(window.taskTable()->currentRow(), test::kRowE);

  // Clicking level 1's box (inside it, at its median, away from the points) selects that level's rows.
  QChartView* levels = window.chartsView()->levelView();
  window.chartsView()->findChild<QTabWidget*>("chartTabs")->setCurrentWidget(levels);
  QTest::qWait(50);
  chart = levels->chart();
  const QPointF inside(0.0, 1.5);  // level 1: speedups 0.8, 1.5, 3.0 -> median 1.5
  const QPoint boxAt =
      levels->mapFromScene(chart->mapToScene(chart->mapToPosition(inside, chart->series().first())));
  QTest::mouseClick(levels->viewport(), Qt::LeftButton, {}, boxAt);
  EXPECT_EQ(window.taskTable()->selectedRows(), (QList<int>{test::kRowA, test::kRowB, test::kRowC}));
}

TEST_F(MainWindowTest, ClickingAFlagMovesTheCandidateCursorToItsLine) {
  window.showRun("/tmp/synthetic-run.jsonl", test::syntheticRun());
  window.taskTable()->setCurrentRow(test::kRowE);
  FlagsView* flags = window.flagsView();
  window.showPane(MainWindow::Pane::Flags);
  ASSERT_EQ(flags->model()->rowCount(), 1);
  const int line = window.run()->flags(test::kRowE)[0].lines[0];
  const QRect cell = flags->view()->visualRect(flags->model()->index(0, FlagTableModel::FamilyColumn));
  QTest::mouseClick(flags->view()->viewport(), Qt::LeftButton, {}, cell.center());
  int cursorLine = -1, index = -1;
  window.codeView()->candidateEditor()->getCursorPosition(&cursorLine, &index);
  EXPECT_EQ(cursorLine, line - 1);
  EXPECT_EQ(index, 0);
  EXPECT_TRUE(window.codeView()->candidateEditor()->hasSelectedText());  // the line is highlighted
  EXPECT_TRUE(window.codeView()->candidateEditor()->text(line - 1).contains("scale_kernel<<<"));
  EXPECT_NE(window.codeView()->candidateEditor()->markersAtLine(line - 1), 0u);  // flag marker in the margin
}

TEST_F(MainWindowTest, FiltersByLevelTextAndSpeedupRange) {
  SKIP_WITHOUT_CUDA_L1();
  ASSERT_TRUE(openCudaL1());
  const auto& run = window.run();
  auto* level = window.findChild<QComboBox*>("filterLevel");
  auto* text = window.findChild<QLineEdit*>("filterText");
  auto* min = window.findChild<QDoubleSpinBox*>("filterMinSpeedup");
  auto* max = window.findChild<QDoubleSpinBox*>("filterMaxSpeedup");
  ASSERT_TRUE(level && text && min && max);

  level->setCurrentIndex(level->findData(3));
  EXPECT_EQ(shown(), 50);
  level->setCurrentIndex(level->findData(2));
  EXPECT_EQ(shown(), 100);
  level->setCurrentIndex(0);

  // Ctrl+F focuses the filter; typing filters by every word.
  QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
  EXPECT_TRUE(text->hasFocus());
  QTest::keyClicks(text, "matmul");
  int expected = 0;
  for (int r = 0; r < run->rowCount(); ++r)
    expected += QString::fromStdString(run->task(r).name).contains("matmul", Qt::CaseInsensitive);
  EXPECT_GT(expected, 0);
  EXPECT_EQ(shown(), expected);
  text->clear();

  min->setValue(2.0);
  max->setValue(10.0);
  expected = 0;
  for (int r = 0; r < run->rowCount(); ++r)
    if (const Candidate* c = run->candidate(r);
        c && c->speedup() && *c->speedup() >= 2.0 && *c->speedup() <= 10.0)
      ++expected;
  EXPECT_EQ(shown(), expected);
  EXPECT_TRUE(
      window.findChild<QLabel*>("statusCounts")->text().endsWith(QStringLiteral("showing %1").arg(expected)));
  window.taskTable()->clearFilters();
  EXPECT_EQ(shown(), 250);
}

// Open Folder starts in the open file's folder, and a typed path is completed inline, so
// the first Return opens it (the completion popup took it before). Offscreen, a key press into the shown
// dialog does not come back, so the test reads the dialog's set-up.
TEST_F(MainWindowTest, OpenFolderStartsBesideTheOpenFileAndCompletesATypedPathInline) {
  QTemporaryDir dir;
  window.showRun(dir.filePath(QStringLiteral("synthetic-run.jsonl")), test::syntheticRun());
  QFileDialog* dialog = window.makeFolderDialog();
  EXPECT_EQ(dialog->directory().absolutePath(), QDir(dir.path()).absolutePath());
  auto* edit = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
  ASSERT_NE(edit, nullptr);
  ASSERT_NE(edit->completer(), nullptr);
  EXPECT_EQ(edit->completer()->completionMode(), QCompleter::InlineCompletion);
  delete dialog;
}

TEST_F(MainWindowTest, RecordsRecentFilesInSettings) {
  SKIP_WITHOUT_CUDA_L1();
  window.recentFiles()->clear();
  ASSERT_TRUE(openCudaL1());
  const QString canonical = QFileInfo(kCudaL1Release).canonicalFilePath();
  EXPECT_EQ(window.recentFiles()->files().value(0), canonical);
  EXPECT_EQ(QSettings().value("recentFiles").toStringList().value(0), canonical);
  auto* menu = window.findChild<QMenu*>("recentMenu");
  ASSERT_NE(menu, nullptr);
  EXPECT_EQ(menu->actions().value(0)->data().toString(), canonical);
  // A new window reads them back.
  MainWindow second;
  EXPECT_EQ(second.recentFiles()->files().value(0), canonical);
}

TEST_F(MainWindowTest, MalformedFileLoadsWhatItCanAndListsTheIssues) {
  QTemporaryDir dir;
  const QString path = dir.filePath("broken.jsonl");
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(
      R"({"level_id": 1, "task_id": 3, "ref_code": "import torch\n", "custom_code": "import torch\n", )"
      R"("score_default": 1.7})"
      "\n{this is not json\n"
      R"({"level_id": 1, "task_id": 4, "custom_code": null})"
      "\n");
  file.close();
  ASSERT_TRUE(open(path));
  EXPECT_EQ(window.run()->rowCount(), 1);
  LoadIssuesView* issues = window.issuesView();
  ASSERT_GE(issues->issueCount(), 2);
  const QString first = issues->view()->model()->index(0, 1).data().toString();
  EXPECT_EQ(first, "broken.jsonl:2");
  auto* issueLabel = window.findChild<QLabel*>("statusIssues");
  EXPECT_TRUE(issueLabel->isVisible());
  EXPECT_TRUE(issueLabel->text().contains(QString::number(issues->issueCount())));
  // Double-clicking an issue changes nothing.
  const QRect cell = issues->view()->visualRect(issues->view()->model()->index(0, 2));
  QTest::mouseDClick(issues->view()->viewport(), Qt::LeftButton, {}, cell.center());
  EXPECT_EQ(window.run()->rowCount(), 1);
  EXPECT_EQ(issues->issueCount(), static_cast<int>(window.run()->run().issues.size()));
  EXPECT_EQ(window.findChild<QMessageBox*>("loadErrorDialog"), nullptr);
}

TEST_F(MainWindowTest, DroppingAFileOpensIt) {
  QTemporaryDir dir;
  const QString path = dir.filePath("dropped.jsonl");
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(R"({"level_id": 2, "task_id": 8, "ref_code": "import torch\n", "custom_code": null})"
             "\n");
  file.close();

  QMimeData remote;
  remote.setUrls({QUrl(QStringLiteral("https://example.com/run.jsonl"))});
  QDragEnterEvent refused(QPoint(20, 20), Qt::CopyAction, &remote, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &refused);
  EXPECT_FALSE(refused.isAccepted());

  QMimeData local;
  local.setUrls({QUrl::fromLocalFile(path)});
  QDragEnterEvent enter(QPoint(20, 20), Qt::CopyAction, &local, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QSignalSpy shown(&window, &MainWindow::runShown);
  QDropEvent drop(QPointF(20, 20), Qt::CopyAction, &local, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &drop);
  ASSERT_TRUE(shown.wait(10000));
  EXPECT_EQ(window.currentPath(), QFileInfo(path).absoluteFilePath());
  EXPECT_EQ(window.run()->task(0).key(), "L2/8");
}

TEST_F(MainWindowTest, UnreadableFileShowsADialogNamingItAndKeepsTheOpenRun) {
  window.showRun("/tmp/synthetic-run.jsonl", test::syntheticRun());
  QSignalSpy failed(window.loader(), &RunLoader::failed);
  window.openPath("/nonexistent/dir/missing-run.jsonl");
  ASSERT_TRUE(failed.wait(10000));
  auto* box = window.findChild<QMessageBox*>("loadErrorDialog");
  ASSERT_NE(box, nullptr);
  EXPECT_TRUE(box->text().contains("missing-run.jsonl"));
  EXPECT_FALSE(box->informativeText().isEmpty());
  EXPECT_EQ(window.run()->rowCount(), 6);
  box->close();
}

TEST_F(MainWindowTest, RemembersItsLayoutAcrossSessions) {
  window.codeView()->setSyncScrolling(false);
  window.showPane(MainWindow::Pane::Charts);
  window.findChild<QDockWidget*>("analysisDock")->hide();
  window.resize(1234, 777);
  window.close();  // closeEvent saves the layout

  MainWindow second;
  EXPECT_FALSE(second.codeView()->isSyncScrolling());
  EXPECT_EQ(second.findChild<QTabWidget*>("centerTabs")->currentWidget(), second.chartsView());
  EXPECT_EQ(second.size(), QSize(1234, 777));
  second.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&second));
  EXPECT_FALSE(second.findChild<QDockWidget*>("analysisDock")->isVisible());
  EXPECT_TRUE(second.findChild<QDockWidget*>("tasksDock")->isVisible());
  // Back to the defaults for the tests after this one.
  second.codeView()->setSyncScrolling(true);
  second.showPane(MainWindow::Pane::Analysis);
  second.showPane(MainWindow::Pane::Code);
  second.resize(1500, 940);
  second.close();
}

TEST_F(MainWindowTest, ShortcutsSwitchPanesAndReloadKeepsTheSelection) {
  SKIP_WITHOUT_CUDA_L1();
  ASSERT_TRUE(openCudaL1());
  int row = 0;
  while (row < window.run()->rowCount() &&
         !(window.run()->task(row).level == 2 && window.run()->candidate(row)->code))
    ++row;
  ASSERT_LT(row, window.run()->rowCount());
  const std::string key = window.run()->task(row).key();
  window.taskTable()->setCurrentRow(row);
  QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
  EXPECT_TRUE(window.chartsView()->isVisible());
  EXPECT_FALSE(window.codeView()->isVisible());
  QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
  EXPECT_TRUE(window.codeView()->isVisible());
  ASSERT_TRUE(window.codeView()->candidateEditor()->hasFocus());
  // From the editor too: the shortcuts are the window's, QScintilla does not take them.
  QTest::keyClick(window.codeView()->candidateEditor(), Qt::Key_5, Qt::ControlModifier);
  // The two docks share a tab bar: the one behind stays "visible" but has nothing on screen.
  const auto onScreen = [](QWidget* w) { return !w->visibleRegion().isEmpty(); };
  EXPECT_TRUE(onScreen(window.issuesView()));
  EXPECT_FALSE(onScreen(window.flagsView()));
  QTest::keyClick(&window, Qt::Key_4, Qt::ControlModifier);
  EXPECT_TRUE(onScreen(window.flagsView()));
  EXPECT_FALSE(onScreen(window.issuesView()));
  QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);
  EXPECT_TRUE(window.paneWidget(MainWindow::Pane::Analysis)->hasFocus());
  QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
  EXPECT_TRUE(window.taskTable()->view()->hasFocus());

  QSignalSpy shownAgain(&window, &MainWindow::runShown);
  QTest::keyClick(&window, Qt::Key_F5);
  ASSERT_TRUE(shownAgain.wait(60000));
  EXPECT_EQ(window.run()->task(window.taskTable()->currentRow()).key(), key);
}

TEST_F(MainWindowTest, CancellingTheChecksKeepsTheRunWithoutFlags) {
  SKIP_WITHOUT_CUDA_L1();
  QSignalSpy canceled(window.loader(), &RunLoader::canceled);
  QSignalSpy checked(window.loader(), &RunLoader::flagsChecked);
  // Cancel as soon as the run is handed over: the checks start after this slot and stop at once.
  QObject::connect(window.loader(), &RunLoader::loaded, window.loader(), &RunLoader::cancel);
  ASSERT_TRUE(openCudaL1());
  ASSERT_TRUE(canceled.wait(10000));
  EXPECT_EQ(checked.count(), 0);
  EXPECT_EQ(window.run()->rowCount(), 250);
  EXPECT_FALSE(window.run()->flagsChecked());
  EXPECT_TRUE(window.findChild<QLabel*>("statusCounts")->text().contains("flags not checked"));
}

TEST_F(MainWindowTest, CancelStopsALoadAndKeepsTheOpenRun) {
  // A run large enough that reading it takes longer than the cancel.
  QTemporaryDir dir;
  const QString path = dir.filePath("big.jsonl");
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  const QByteArray code = QByteArray("import torch\\n").repeated(20);
  for (int i = 0; i < 20000; ++i)
    file.write(QStringLiteral(R"({"level_id": 1, "task_id": %1, "ref_code": "%2", "custom_code": "%2", )"
                              R"("score_default": 1.5})"
                              "\n")
                   .arg(i)
                   .arg(QString::fromLatin1(code))
                   .toUtf8());
  file.close();
  window.showRun("/tmp/synthetic-run.jsonl", test::syntheticRun());
  QSignalSpy canceled(window.loader(), &RunLoader::canceled);
  QSignalSpy loaded(window.loader(), &RunLoader::loaded);
  window.openPath(path);
  window.loader()->cancel();
  for (int waited = 0; waited < 60000 && canceled.isEmpty() && loaded.isEmpty(); waited += 20)
    QTest::qWait(20);
  EXPECT_EQ(canceled.count(), 1);
  EXPECT_EQ(loaded.count(), 0);
  EXPECT_EQ(window.run()->rowCount(), 6);
  EXPECT_FALSE(window.findChild<QWidget*>("loadProgress")->isVisible());
}

}  // namespace
}  // namespace ks
