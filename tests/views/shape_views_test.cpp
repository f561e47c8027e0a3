// The Shapes and Roofline tabs and the GEMM header of the code view on the real CUDA-L2 release (skipped
// with the reason when it is not at ../shared): shown only for runs with GEMM tasks, choices filled from the
// data and remembered, a click on a cell selects its task in the OpenRun, usable at 1024×700; and their
// screenshots (suite Screenshots, written into <build>/screenshots like the others;
// docs/screenshots/update.sh copies them into docs/screenshots).
#include <gtest/gtest.h>

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>
#include <algorithm>
#include <cstdio>

#include "app/kernelscope/main_window.h"
#include "core/formats/load.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/charts/roofline_view.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/gemm_task_header.h"
#include "views/widgets/shape_map_canvas.h"
#include "views/widgets/shape_map_view.h"
#include "ks_test_paths.h"
#include "tests/views/gui_test_support.h"
#include "tests/view_logic/cuda_l2_release.h"

namespace ks {
namespace {

using guitest::kCudaL2Release;
using guitest::kScreenshotDir;
using guitest::saveScreenshot;




QTabWidget* centerTabs(MainWindow& w) { return w.findChild<QTabWidget*>(QStringLiteral("centerTabs")); }
bool tabShown(MainWindow& w, QWidget* tab) {
  QTabWidget* tabs = centerTabs(w);
  return tabs->isTabVisible(tabs->indexOf(tab));
}

QStringList items(const QComboBox* box) {
  QStringList list;
  for (int i = 0; i < box->count(); ++i) list << box->itemData(i).toString();
  return list;
}

TEST(ShapeViews, ShownOnlyForRunsWithGemmTasks) {
  QSettings().clear();
  MainWindow window;
  EXPECT_FALSE(tabShown(window, window.shapeMapView()));
  EXPECT_FALSE(tabShown(window, window.rooflineView()));
  window.showRun(QStringLiteral("/tmp/synthetic-run.jsonl"), test::syntheticRun());
  EXPECT_FALSE(tabShown(window, window.shapeMapView()));
  EXPECT_FALSE(window.shapeMapView()->hasGemmTasks());
  EXPECT_TRUE(window.shapeMapView()
                  ->findChild<QLabel*>(QStringLiteral("shapeNote"))
                  ->text()
                  .contains(QStringLiteral("no GEMM tasks")));
  // Ctrl+7 on a run without GEMM tasks leaves the tab where it was and says why (in the status bar).
  window.showPane(MainWindow::Pane::Shapes);
  EXPECT_NE(centerTabs(window)->currentWidget(), window.shapeMapView());
  NEED_CUDA_L2_RELEASE();
  window.showRun(kCudaL2Release, run);
  EXPECT_TRUE(tabShown(window, window.shapeMapView()));
  EXPECT_TRUE(tabShown(window, window.rooflineView()));
  window.showPane(MainWindow::Pane::Shapes);
  EXPECT_EQ(centerTabs(window)->currentWidget(), window.shapeMapView());
  window.showPane(MainWindow::Pane::Roofline);
  EXPECT_EQ(centerTabs(window)->currentWidget(), window.rooflineView());
}

TEST(ShapeViews, ChoicesComeFromTheDataAndAClickSelectsTheTask) {
  NEED_CUDA_L2_RELEASE();
  QSettings().clear();
  MainWindow window;
  window.resize(1024, 700);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  window.showRun(kCudaL2Release, run);
  ShapeMapView* shapes = window.shapeMapView();
  EXPECT_EQ(items(shapes->baselineChoice()).size(), 10);
  EXPECT_EQ(items(shapes->baselineChoice()).front(), QStringLiteral("torch.matmul"));
  EXPECT_EQ(items(shapes->modeChoice()), (QStringList{QStringLiteral("offline"), QStringLiteral("server")}));
  EXPECT_EQ(shapes->kChoice()->count(), 11);  // every K, then each of the ten
  window.showPane(MainWindow::Pane::Shapes);
  QApplication::processEvents();

  const int row = run->findRow("h100_F32F16F16F32/4096x1024x256", "");
  ASSERT_GE(row, 0);
  ShapeMapCanvas* canvas = shapes->canvas();
  const QRect cell = canvas->cellRect(row);
  ASSERT_FALSE(cell.isEmpty());
  EXPECT_GE(cell.width(), 5) << "at 1024×700 with all ten Ks";
  EXPECT_TRUE(canvas->rect().contains(cell));
  EXPECT_EQ(canvas->rowAt(cell.center()), row);
  QTest::mouseClick(canvas, Qt::LeftButton, {}, cell.center());
  EXPECT_EQ(window.openRun()->currentRow(), row);
  // The code view's GEMM header follows the selection: shape and the kernel's tiles.
  GemmTaskHeader* header = window.codeView()->gemmHeader();
  EXPECT_FALSE(header->isHidden());
  EXPECT_TRUE(header->summary()->text().contains(QStringLiteral("M 4096 × N 1024 × K 256")));
  EXPECT_TRUE(header->tiles()->text().contains(QStringLiteral("BM")))
      << header->tiles()->text().toStdString();

  // One K large: the cell grows.
  shapes->kChoice()->setCurrentIndex(shapes->kChoice()->findData(QStringLiteral("256")));
  QApplication::processEvents();
  EXPECT_GT(canvas->cellRect(row).width(), cell.width());
  EXPECT_TRUE(canvas->cellRect(run->findRow("h100_F32F16F16F32/4096x1024x64", "")).isEmpty());

  // The roofline has no time to place recorded speedups at, and says so.
  EXPECT_TRUE(window.rooflineView()->roofline().points.empty());
  EXPECT_TRUE(window.rooflineView()->note()->text().contains(QStringLiteral("re-time shapes to place them")));
}

TEST(ShapeViews, ChoicesAreRememberedAndReset) {
  NEED_CUDA_L2_RELEASE();
  QSettings().clear();
  {
    MainWindow window;
    window.showRun(kCudaL2Release, run);
    ShapeMapView* shapes = window.shapeMapView();
    shapes->baselineChoice()->setCurrentIndex(
        shapes->baselineChoice()->findData(QStringLiteral("cuBLAS-max")));
    shapes->modeChoice()->setCurrentIndex(shapes->modeChoice()->findData(QStringLiteral("server")));
    shapes->kChoice()->setCurrentIndex(shapes->kChoice()->findData(QStringLiteral("4096")));
    window.close();  // saves the settings
  }
  MainWindow window;
  window.showRun(kCudaL2Release, run);
  ShapeMapView* shapes = window.shapeMapView();
  EXPECT_EQ(shapes->baselineChoice()->currentData().toString(), QStringLiteral("cuBLAS-max"));
  EXPECT_EQ(shapes->modeChoice()->currentData().toString(), QStringLiteral("server"));
  EXPECT_EQ(shapes->kChoice()->currentData().toString(), QStringLiteral("4096"));
  auto* reset = window.findChild<QAction*>(QStringLiteral("resetShapesAction"));
  ASSERT_NE(reset, nullptr);
  reset->trigger();
  EXPECT_EQ(shapes->baselineChoice()->currentIndex(), 0);
  EXPECT_EQ(shapes->modeChoice()->currentIndex(), 0);
  EXPECT_EQ(shapes->kChoice()->currentIndex(), 0);
}

TEST(ShapeViews, AReRunOnTheGpuFillsTheMeasuredMapAndPlacesARooflinePointThatSelectsItsTask) {
  NEED_CUDA_L2_RELEASE();
  QSettings().clear();
  MainWindow window;
  window.resize(1200, 800);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  window.showRun(kCudaL2Release, run);
  const int row = run->findRow("h100_F32F16F16F32/4096x4096x4096", "");
  ASSERT_GE(row, 0);
  // A re-run of the recorded kernel as the runner reports one from an H100: 1 ms against 2 ms.
  runs::MeasuredRun timed = test::timedRun(2.0);
  timed.row.device = "NVIDIA H100 80GB HBM3";
  timed.result->timing->candidate.medianMs = 1.0;
  timed.result->timing->reference.medianMs = 2.0;
  window.openRun()->addRun(row, {timed, true});

  ShapeMapView* shapes = window.shapeMapView();
  shapes->sourceChoice()->setCurrentIndex(1);  // measured here
  EXPECT_FALSE(shapes->baselineChoice()->isEnabled()) << "a re-run is timed against the task's reference";
  const ShapeMap::Cell* cell = shapes->map()->cellOfRow(row);
  ASSERT_NE(cell, nullptr);
  ASSERT_TRUE(cell->value);
  EXPECT_DOUBLE_EQ(*cell->value, 2.0);
  EXPECT_EQ(shapes->map()->emptyCount(), 999);

  RooflineView* roofline = window.rooflineView();
  ASSERT_EQ(roofline->roofline().points.size(), 2u);
  EXPECT_NEAR(roofline->roofline().points[0].tflops, 137.4, 0.05);
  EXPECT_TRUE(roofline->note()->text().contains(QStringLiteral("1 shape placed")))
      << roofline->note()->text().toStdString();
  window.showPane(MainWindow::Pane::Roofline);
  QApplication::processEvents();
  const RooflinePoint& p = roofline->roofline().points[0];
  QChart* chart = roofline->chartView()->chart();
  const QPointF at = roofline->chartView()->mapFromScene(
      chart->mapToScene(chart->mapToPosition(QPointF(p.intensity, p.tflops))));
  QTest::mouseClick(roofline->chartView()->viewport(), Qt::LeftButton, {}, at.toPoint());
  EXPECT_EQ(window.openRun()->currentRow(), row);
}


TEST(Screenshots, ShapeMapAndRooflineOnTheCudaL2Release) {
  NEED_CUDA_L2_RELEASE();
  ASSERT_TRUE(QDir().mkpath(kScreenshotDir));
  QSettings().clear();
  MainWindow window;
  window.resize(1600, 1000);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  // Opened as the app opens it, with the static checks' flags: a kernel with a hack flag is hatched.
  QSignalSpy flagged(&window, &MainWindow::flagsShown);
  window.openPath(kCudaL2Release);
  ASSERT_TRUE(flagged.wait(120000));
  int hackRows = 0;
  for (int r = 0; r < window.run()->rowCount(); ++r)
    hackRows += std::any_of(window.run()->flags(r).begin(), window.run()->flags(r).end(),
                            [](const Flag& f) { return f.severity == FlagSeverity::Hack; });
  std::printf("CUDA-L2 release: %d of %d kernels with a static hack flag\n", hackRows,
              window.run()->rowCount());
  EXPECT_EQ(window.shapeMapView()->map()->untrustedCount(), hackRows);
  const int row = window.run()->findRow("h100_F32F16F16F32/4096x1024x256", "");
  ASSERT_GE(row, 0);
  window.showPane(MainWindow::Pane::Shapes);
  QTest::mouseClick(window.shapeMapView()->canvas(), Qt::LeftButton, {},
                    window.shapeMapView()->canvas()->cellRect(row).center());
  ASSERT_EQ(window.openRun()->currentRow(), row);
  QTest::qWait(50);
  saveScreenshot(&window, QStringLiteral("shape_map.png"));
  ShapeMapView* shapes = window.shapeMapView();
  shapes->kChoice()->setCurrentIndex(shapes->kChoice()->findData(QStringLiteral("256")));
  saveScreenshot(shapes, QStringLiteral("shape_map_k256.png"));
  shapes->kChoice()->setCurrentIndex(0);
  window.showPane(MainWindow::Pane::Roofline);
  QTest::qWait(50);
  saveScreenshot(window.rooflineView(), QStringLiteral("roofline.png"));
  window.showPane(MainWindow::Pane::Code);
  window.codeView()->gemmHeader()->findChild<QToolButton*>(QStringLiteral("gemmMore"))->setChecked(true);
  QTest::qWait(50);
  saveScreenshot(window.codeView(), QStringLiteral("code_compare_gemm.png"));
  // At the smallest size the window is meant for.
  window.resize(1024, 700);
  window.showPane(MainWindow::Pane::Shapes);
  QTest::qWait(50);
  saveScreenshot(&window, QStringLiteral("shape_map_1024x700.png"));
}

}  // namespace
}  // namespace ks
