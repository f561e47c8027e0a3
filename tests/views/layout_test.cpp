// The window's layout: it fits 1024 × 700 with every pane above its least size and the run
// settings in sight, the reference is readable at the default size, View ▸ Reset Layout puts every pane
// back, and a saved layout in which a pane would be unusable is replaced by the default one.
#include <Qsci/qsciscintilla.h>
#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "app/kernelscope/main_window.h"
#include "app/kernelscope/run_loader.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/widgets/analysis_view.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/task_table.h"

namespace ks {
namespace {

const char* const kDocks[] = {"tasksDock", "analysisDock", "flagsDock", "issuesDock", "measurementsDock"};

void showAndSettle(MainWindow& window) {
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QTest::qWait(50);  // the posted layout check and the docks' resize
}

// Characters of the default style that fit the text area of `editor` (its margins left out).
int visibleColumns(QsciScintilla* editor) {
  int margins = 0;
  for (int m = 0; m < 5; ++m)
    margins += static_cast<int>(editor->SendScintilla(QsciScintillaBase::SCI_GETMARGINWIDTHN, m));
  const long digit =
      editor->SendScintilla(QsciScintillaBase::SCI_TEXTWIDTH, QsciScintillaBase::STYLE_DEFAULT, "0");
  return digit > 0 ? static_cast<int>((editor->viewport()->width() - margins) / digit) : 0;
}

class LayoutTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* key : {"mainWindow/geometry", "mainWindow/state", "mainWindow/codeCompare"})
      QSettings().remove(QString::fromLatin1(key));
  }
};

TEST_F(LayoutTest, FitsTheSmallestScreenWithEveryPaneUsable) {
  MainWindow window;
  window.showRun("/tmp/synthetic-run.jsonl", test::syntheticRun());
  window.resize(MainWindow::kSmallestScreen);
  showAndSettle(window);
  EXPECT_LE(window.minimumSizeHint().width(), 1024);
  EXPECT_LE(window.minimumSizeHint().height(), 700);
  EXPECT_EQ(window.size(), QSize(1024, 700));
  QString why;
  EXPECT_TRUE(window.layoutUsable(&why)) << why.toStdString();
  // Each pane shown gets at least its least size: none is squeezed to a few letters a line.
  const std::pair<MainWindow::Pane, QSize> panes[] = {
      {MainWindow::Pane::Tasks, MainWindow::kMinimumTasks},
      {MainWindow::Pane::Analysis, MainWindow::kMinimumAnalysis},
      {MainWindow::Pane::Flags, MainWindow::kMinimumBottomPane}};
  for (const auto& [pane, least] : panes) {
    QWidget* dockContent = window.paneWidget(pane);
    while (dockContent && !qobject_cast<QDockWidget*>(dockContent->parentWidget()))
      dockContent = dockContent->parentWidget();
    ASSERT_NE(dockContent, nullptr);
    EXPECT_GE(dockContent->width(), least.width()) << static_cast<int>(pane);
    EXPECT_GE(dockContent->height(), least.height()) << static_cast<int>(pane);
  }
  EXPECT_GE(window.codeView()->width(), MainWindow::kMinimumCenter.width());
  // The run settings stay on the toolbar, not behind its overflow button.
  for (const char* name : {"runDevice", "runTrials", "runSeeds", "runLimitsButton"})
    EXPECT_TRUE(window.findChild<QWidget*>(name)->isVisible()) << name;
  // The window cannot be made smaller than 1024 × 700 allows.
  window.resize(600, 400);
  QTest::qWait(20);
  EXPECT_TRUE(window.layoutUsable(&why)) << why.toStdString();
  window.close();
}

TEST_F(LayoutTest, TheReferenceIsReadableAtTheDefaultSize) {
  MainWindow window;
  // The default size of a screen with room for it (the offscreen screen is smaller: the first window
  // keeps to the screen, FirstUseTest checks that).
  window.resize(1500, 940);
  window.showRun("/tmp/synthetic-run.jsonl", test::syntheticRun());
  window.taskTable()->setCurrentRow(0);
  showAndSettle(window);
  EXPECT_EQ(window.size(), QSize(1500, 940));
  EXPECT_GE(visibleColumns(window.codeView()->referenceEditor()), 60)
      << "tasks " << window.findChild<QDockWidget*>("tasksDock")->width() << " px, code "
      << window.codeView()->width() << " px, reference " << window.codeView()->referenceEditor()->width()
      << " px";
  // Flags shares the height below the code: at most a quarter of the window for a few rows.
  EXPECT_LE(window.findChild<QDockWidget*>("flagsDock")->height(), window.height() / 4 + 10);
  window.close();
}

TEST_F(LayoutTest, ResetLayoutPutsEveryPaneBackAndForgetsTheSavedOne) {
  MainWindow window;
  showAndSettle(window);
  auto* tasks = window.findChild<QDockWidget*>("tasksDock");
  auto* analysis = window.findChild<QDockWidget*>("analysisDock");
  auto* flags = window.findChild<QDockWidget*>("flagsDock");
  window.addDockWidget(Qt::RightDockWidgetArea, tasks);
  analysis->hide();
  flags->setFloating(true);
  window.close();  // saves the changed layout
  ASSERT_TRUE(QSettings().contains("mainWindow/state"));

  window.show();
  window.findChild<QAction*>("resetLayoutAction")->trigger();
  QTest::qWait(50);
  EXPECT_FALSE(QSettings().contains("mainWindow/state"));
  EXPECT_FALSE(QSettings().contains("mainWindow/geometry"));
  EXPECT_EQ(window.dockWidgetArea(tasks), Qt::LeftDockWidgetArea);
  EXPECT_EQ(window.dockWidgetArea(analysis), Qt::BottomDockWidgetArea);
  EXPECT_TRUE(analysis->isVisible());
  EXPECT_FALSE(flags->isFloating());
  EXPECT_TRUE(flags->isVisible());  // raised over Measurements and Load issues
  for (const char* name : kDocks) EXPECT_FALSE(window.findChild<QDockWidget*>(name)->isHidden()) << name;
  QString why;
  EXPECT_TRUE(window.layoutUsable(&why)) << why.toStdString();
  EXPECT_EQ(window.findChild<QAction*>("resetLayoutAction")->shortcut(),
            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_0));
  window.close();
}

TEST_F(LayoutTest, ASavedLayoutThatSqueezesAPaneIsReplacedByTheDefault) {
  {
    MainWindow first;
    showAndSettle(first);
    // Every pane side by side: fine at 1500 px, unusable on a 1024-px screen.
    const auto dock = [&](const char* name) { return first.findChild<QDockWidget*>(name); };
    first.addDockWidget(Qt::RightDockWidgetArea, dock("analysisDock"));
    first.addDockWidget(Qt::RightDockWidgetArea, dock("flagsDock"));
    first.splitDockWidget(dock("analysisDock"), dock("flagsDock"), Qt::Horizontal);
    first.addDockWidget(Qt::LeftDockWidgetArea, dock("measurementsDock"));
    first.splitDockWidget(dock("tasksDock"), dock("measurementsDock"), Qt::Horizontal);
    QTest::qWait(20);
    ASSERT_GT(first.minimumSizeHint().width(), 1024);
    first.close();
  }
  MainWindow second;
  QSignalSpy reset(&second, &MainWindow::layoutReset);
  showAndSettle(second);
  if (reset.isEmpty()) {
    ASSERT_TRUE(reset.wait(2000));
  }
  EXPECT_EQ(second.dockWidgetArea(second.findChild<QDockWidget*>("analysisDock")), Qt::BottomDockWidgetArea);
  EXPECT_EQ(second.dockWidgetArea(second.findChild<QDockWidget*>("measurementsDock")),
            Qt::BottomDockWidgetArea);
  QTest::qWait(20);
  EXPECT_LE(second.minimumSizeHint().width(), 1024);
  QString why;
  EXPECT_TRUE(second.layoutUsable(&why)) << why.toStdString();
  second.close();
}

TEST_F(LayoutTest, AUsableSavedLayoutIsKept) {
  {
    MainWindow first;
    showAndSettle(first);
    first.findChild<QDockWidget*>("analysisDock")->hide();
    first.close();
  }
  MainWindow second;
  QSignalSpy reset(&second, &MainWindow::layoutReset);
  showAndSettle(second);
  QTest::qWait(50);
  EXPECT_TRUE(reset.isEmpty());
  EXPECT_FALSE(second.findChild<QDockWidget*>("analysisDock")->isVisible());
  second.close();
}

// A .cu that cannot run (no `// kscope:` header naming its reference and inputs): Run is disabled with the
// reason in its tooltip, and the change summary does not count its lines "against the reference".
TEST_F(LayoutTest, RunIsDisabledWithTheReasonForAKernelThatCannotRun) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("lone.cu"));
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::WriteOnly));
  file.write(
      "__global__ void scale(float* x, float a, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) x[i] *= a;\n"
      "}\n");
  file.close();
  MainWindow window;
  showAndSettle(window);
  QSignalSpy shown(&window, &MainWindow::runShown);
  QSignalSpy failed(window.loader(), &RunLoader::failed);
  window.openPath(path);
  for (int waited = 0; waited < 30000 && shown.isEmpty() && failed.isEmpty(); waited += 20) QTest::qWait(20);
  ASSERT_FALSE(shown.isEmpty());
  ASSERT_GE(window.run()->rowCount(), 1);
  window.taskTable()->setCurrentRow(0);
  QTest::qWait(20);
  auto* run = window.findChild<QAction*>(QStringLiteral("runAction"));
  EXPECT_FALSE(run->isEnabled());
  EXPECT_TRUE(run->toolTip().startsWith("Cannot run: ")) << run->toolTip().toStdString();
  const QString analysis = window.analysisView()->markdownShown();
  EXPECT_FALSE(analysis.contains("against the reference")) << analysis.toStdString();
  EXPECT_TRUE(analysis.contains("No reference program")) << analysis.toStdString();
  window.close();
}

}  // namespace
}  // namespace ks
