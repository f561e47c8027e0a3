// The Search tab in the window, offscreen: a click on a candidate selects it in the shared
// OpenRun (every pane follows) and the tab's compare shows it against its parent; hovering shows its idea;
// a selection made elsewhere is ringed; a run without lineage is a flat list and says so; Ctrl+9 shows the
// tab; and a 100 000-candidate search lays out, paints and hit-tests at interactive speed (times printed;
// the assertions are loose, for a loaded 2-core machine); and its screenshot.
#include "views/widgets/search_tree_view.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QHelpEvent>
#include <QLabel>
#include <QTabWidget>
#include <QTest>
#include <QToolTip>
#include <QWheelEvent>
#include <cstdio>

#include "app/kernelscope/main_window.h"
#include "core/formats/load.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/charts/best_by_round_chart.h"
#include "views/logic/loaded_run.h"
#include "views/logic/open_run.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/code_editor.h"
#include "views/widgets/search_tree_canvas.h"
#include "views/widgets/task_table.h"
#include "ks_test_paths.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::kSearchSample;


std::shared_ptr<const LoadedRun> sample() {
  static const auto run = std::make_shared<const LoadedRun>(loadAny(kSearchSample.toStdString()));
  return run;
}

int rowOf(const LoadedRun& run, const std::string& id) { return run.findRow("L1/923", id); }

TEST(SearchTreeView, AClickSelectsTheCandidateEverywhereAndShowsItAgainstItsParent) {
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  window.showRun(kSearchSample, sample());
  window.showPane(MainWindow::Pane::Search);
  QApplication::processEvents();
  SearchTreeView* view = window.searchTreeView();
  ASSERT_EQ(window.findChild<QTabWidget*>(QStringLiteral("centerTabs"))->currentWidget(), view);
  ASSERT_NE(view->tree(), nullptr);
  EXPECT_EQ(view->tree()->nodes().size(), 13u);
  EXPECT_TRUE(view->note()->text().contains(QStringLiteral("13 candidates over 4 rounds")))
      << view->note()->text().toStdString();

  SearchTreeCanvas* canvas = view->canvas();
  const int row = rowOf(*sample(), "r2b");
  const int node = view->tree()->nodeOfRow(row);
  const QPointF at = canvas->nodeCentre(node);
  ASSERT_TRUE(canvas->rect().contains(at.toPoint())) << "the whole search fits at first";
  EXPECT_EQ(canvas->nodeAt(at), node);
  QTest::mouseClick(canvas, Qt::LeftButton, {}, at.toPoint());
  EXPECT_EQ(window.openRun()->currentRow(), row);    // the shared selection
  EXPECT_EQ(window.taskTable()->currentRow(), row);  // and so every pane
  EXPECT_TRUE(window.codeView()->candidateProgram().contains(QStringLiteral("softmax_regs_kernel")));
  EXPECT_EQ(canvas->currentNode(), node);
  // The tab's compare: r2b against its parent r1c, read-only.
  CodeCompareView* compare = view->compare();
  EXPECT_EQ(compare->shownParent(), QStringLiteral("r1c"));
  EXPECT_TRUE(compare->referenceEditor()->text().contains(QStringLiteral("softmax_warp_kernel")));
  EXPECT_TRUE(compare->candidateEditor()->text().contains(QStringLiteral("softmax_regs_kernel")));
  EXPECT_FALSE(compare->diff().identical());
  EXPECT_FALSE(compare->isEditing());
  // The Code tab offers the parent too, but starts at the task's reference.
  EXPECT_TRUE(window.codeView()->shownParent().isEmpty());
  EXPECT_GE(window.codeView()->referenceChoice()->findText(QStringLiteral("Parent: r1c")), 0);

  // A click on empty space selects nothing new.
  QTest::mouseClick(canvas, Qt::LeftButton, {}, QPoint(canvas->width() - 3, canvas->height() - 3));
  EXPECT_EQ(window.openRun()->currentRow(), row);
  // A selection made elsewhere (the task list) is ringed here.
  const int other = rowOf(*sample(), "r3c");
  window.taskTable()->setCurrentRow(other);
  EXPECT_EQ(canvas->currentNode(), view->tree()->nodeOfRow(other));
  EXPECT_EQ(compare->shownParent(), QStringLiteral("r2b"));  // its first parent
}

TEST(SearchTreeView, HoveringACandidateShowsItsIdea) {
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  window.showRun(kSearchSample, sample());
  window.showPane(MainWindow::Pane::Search);
  QApplication::processEvents();
  SearchTreeCanvas* canvas = window.searchTreeView()->canvas();
  const int node = window.searchTreeView()->tree()->nodeOfRow(rowOf(*sample(), "r1d"));
  const QPoint at = canvas->nodeCentre(node).toPoint();
  const QString tip = canvas->toolTipAt(at);
  EXPECT_TRUE(tip.startsWith(QStringLiteral("L1/923 · r1d · round 1 · from r0"))) << tip.toStdString();
  // The file records its failed run (run format "outcome", "error"): drawn and told like a failed re-run.
  EXPECT_TRUE(tip.contains(QStringLiteral("Incorrect: the output does not match the reference — seed 44")))
      << tip.toStdString();
  EXPECT_EQ(searchNodeColour(window.searchTreeView()->states()[static_cast<std::size_t>(node)]),
            search_colours::kFailed);
  EXPECT_TRUE(tip.contains(QStringLiteral("Idea: One warp per row as in r1c"))) << tip.toStdString();
  // Through the event the canvas gets when the pointer rests.
  QHelpEvent help(QEvent::ToolTip, at, canvas->mapToGlobal(at));
  QApplication::sendEvent(canvas, &help);
  EXPECT_EQ(QToolTip::text(), tip);
  QToolTip::hideText();
}

TEST(SearchTreeView, ARunWithoutLineageIsAFlatListAndSaysSo) {
  MainWindow window;
  window.showRun(QStringLiteral("/tmp/synthetic-run.jsonl"), test::syntheticRun());
  SearchTreeView* view = window.searchTreeView();
  ASSERT_NE(view->tree(), nullptr);
  EXPECT_EQ(view->tree()->kind(), SearchTree::Kind::Flat);
  EXPECT_TRUE(view->note()->text().contains(QStringLiteral("No lineage in this run")))
      << view->note()->text().toStdString();
  EXPECT_TRUE(view->bestChart()->rounds().empty());
  // The synthetic run's candidates are spread over tasks: every task's are listed, one by one or together.
  view->setScopeTask(SearchTree::kAllTasks);
  EXPECT_EQ(view->tree()->nodes().size(), 5u);
}

TEST(SearchTreeView, CtrlNineShowsTheTab) {
  MainWindow window;
  QAction* action = nullptr;
  for (QAction* a : window.findChildren<QAction*>())
    if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_9)) action = a;
  ASSERT_NE(action, nullptr);
  EXPECT_EQ(action->text().remove('&'), QStringLiteral("Search Tree"));
  action->trigger();
  EXPECT_EQ(window.findChild<QTabWidget*>(QStringLiteral("centerTabs"))->currentWidget(),
            window.searchTreeView());
}

// The search tree of a 100 000-candidate run draws in < 1 s and stays interactive. One task, each
// candidate derived from a random earlier one, eight per round (bench/generate_run.cpp's lineage).
TEST(SearchTreeView, AHundredThousandCandidatesStayInteractive) {
  constexpr int kCandidates = 100000;
  RunFile file;
  file.format = "kscope-run";
  Task& task = file.tasks.emplace_back();
  task.level = 1;
  task.number = 1;
  task.name = "generated";
  task.referenceCode = "import torch\n";
  std::uint64_t state = 42;
  const auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 17;
  };
  task.candidates.reserve(kCandidates);
  for (int i = 0; i < kCandidates; ++i) {
    Candidate& c = task.candidates.emplace_back();
    c.id = "r" + std::to_string(i);
    if (i > 0) c.parents.push_back("r" + std::to_string(next() % static_cast<std::uint64_t>(i)));
    c.step = i / 8;
    c.code = "x";
    c.analysis = "## Idea\nTry tile " + std::to_string(i % 7);
    Measurement m;
    m.speedup = 0.3 + static_cast<double>(next() % 4000) / 1000.0;
    c.measurements.push_back(m);
  }
  const auto run = std::make_shared<const LoadedRun>(std::move(file));
  SearchTreeView view;
  OpenRun open;
  view.observe(&open);
  view.resize(1400, 900);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  QElapsedTimer timer;
  timer.start();
  open.open(QStringLiteral("/tmp/generated.jsonl"), run);  // layout, states, best-so-far chart
  const qint64 openMs = timer.elapsed();
  SearchTreeCanvas* canvas = view.canvas();
  timer.restart();
  canvas->repaint();
  const qint64 fitPaintMs = timer.elapsed();
  EXPECT_EQ(canvas->lastPaintedNodes(), kCandidates);  // all in view at first: drawn dense
  // Zoom in around the middle (wheel), and paint again: only what is in view is visited.
  const QPointF middle(canvas->width() / 2.0, canvas->height() / 2.0);
  for (int i = 0; i < 12; ++i) {
    QWheelEvent wheel(middle, canvas->mapToGlobal(middle), {}, QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(canvas, &wheel);
  }
  timer.restart();
  canvas->repaint();
  const qint64 zoomedPaintMs = timer.elapsed();
  EXPECT_LT(canvas->lastPaintedNodes(), kCandidates / 10);
  // A click (hit test and the selection through the OpenRun) and its repaint.
  QObject::connect(&view, &SearchTreeView::rowSelected, &open, &OpenRun::setCurrentRow);
  int hit = -1;
  for (int y = 0; y < canvas->height() && hit < 0; y += 2)
    for (int x = 40; x < canvas->width() && hit < 0; x += 2)
      if (canvas->nodeAt(QPointF(x, y)) >= 0) hit = canvas->nodeAt(QPointF(x, y));
  ASSERT_GE(hit, 0);
  timer.restart();
  QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->nodeCentre(hit).toPoint());
  canvas->repaint();
  const qint64 clickMs = timer.elapsed();
  EXPECT_EQ(open.currentRow(), view.tree()->nodes()[static_cast<std::size_t>(hit)].row);
  std::printf(
      "[ search tab ] 100000 candidates: open (layout, colours, chart) %lld ms, paint all %lld ms, "
      "paint zoomed (%d in view) %lld ms, click to repaint %lld ms\n",
      static_cast<long long>(openMs), static_cast<long long>(fitPaintMs), canvas->lastPaintedNodes(),
      static_cast<long long>(zoomedPaintMs), static_cast<long long>(clickMs));
  EXPECT_LT(fitPaintMs, 3000);  // loose: ~tens of ms on an idle core
  EXPECT_LT(zoomedPaintMs, 3000);
}

TEST(Screenshots, SearchTreeOfTheCaseStudy) {
  const QString out = QStringLiteral(KS_BINARY_DIR "/screenshots");
  ASSERT_TRUE(QDir().mkpath(out));
  MainWindow window;
  window.resize(1500, 940);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  window.showRun(kSearchSample, sample());
  window.showPane(MainWindow::Pane::Search);
  window.taskTable()->setCurrentRow(rowOf(*sample(), "r3a"));
  QTest::qWait(50);
  ASSERT_TRUE(window.grab().save(QDir(out).filePath(QStringLiteral("search_tree.png"))));
}

}  // namespace
}  // namespace ks
