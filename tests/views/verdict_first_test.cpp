// The verdict first in every pane that shows a recorded number (speedup_trust.h, claimDisplay): the
// candidate's header (readable at 1024 and 1280 pixels: the verdict is what a narrow header keeps), the
// Measurements headline and claims, the Analysis pane's recorded list; and the Measured column showing the
// numbers a run file carries from an earlier KernelScope run (origin "measured"), as the Search tab does.
#include <gtest/gtest.h>

#include <QFileInfo>
#include <QFont>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>

#include "app/kernelscope/main_window.h"
#include "core/formats/load.h"
#include "ks_test_paths.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/search_tree.h"
#include "views/logic/speedup_format.h"
#include "views/item_models/candidate_table_model.h"
#include "views/item_models/measurement_table_model.h"
#include "views/widgets/analysis_view.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/measurements_view.h"
#include "views/widgets/task_table.h"
#include "tests/views/gui_test_support.h"

namespace ks {
namespace {

using guitest::kCudaL1Release;
using guitest::kSearchSample;
using guitest::forgetWindowLayout;



// The widget's rectangle in `ancestor`'s coordinates.
QRect rectIn(const QWidget* widget, const QWidget* ancestor) {
  return {widget->mapTo(ancestor, QPoint(0, 0)), widget->size()};
}

// Whether the text `what` of `document` is struck through.
bool struckIn(const QTextDocument* document, const QString& what) {
  const QTextCursor found = document->find(what);
  return !found.isNull() && found.charFormat().fontStrikeOut();
}

// Synthetic row E carries a static hack flag (extra-stream) and a recorded 17.00×.
TEST(VerdictFirst, TheCandidateHeaderSaysTheVerdictAndStrikesTheClaim) {
  const auto run = test::syntheticRun();
  CodeCompareView view;
  view.resize(1400, 400);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  view.showRow(run, test::kRowE);
  QTest::qWait(20);  // the header's layout
  auto* verdict = view.findChild<QLabel*>(QStringLiteral("candidateVerdict"));
  auto* claim = view.findChild<QLabel*>(QStringLiteral("candidateClaim"));
  auto* title = view.findChild<QLabel*>(QStringLiteral("candidateTitle"));
  ASSERT_TRUE(verdict && claim && title);
  EXPECT_TRUE(verdict->isVisible());
  EXPECT_EQ(verdict->text(), "Caught hack");
  EXPECT_TRUE(verdict->toolTip().contains("caught hack in its code: extra-stream"))
      << verdict->toolTip().toStdString();
  EXPECT_EQ(claim->text(), "17.00× recorded");
  EXPECT_TRUE(claim->font().strikeOut());
  EXPECT_EQ(title->toolTip(), "Caught hack · e · 17.00× recorded");
  EXPECT_LE(verdict->geometry().right(), title->geometry().left());

  view.showRow(run, test::kRowC);  // nothing speaks against c's 3.000×
  QTest::qWait(20);
  EXPECT_FALSE(verdict->isVisible());
  EXPECT_EQ(claim->text(), "3.000× recorded");
  EXPECT_FALSE(claim->font().strikeOut());
  EXPECT_EQ(title->toolTip(), "c · 3.000× recorded");
}

TEST(VerdictFirst, TheAnalysisPaneSaysTheVerdictFirstAndStrikesTheRecordedNumbers) {
  const auto run = test::syntheticRun();
  AnalysisView view;
  view.showRow(run, test::kRowE);
  const QString md = view.markdownShown();
  EXPECT_TRUE(md.contains("caught hack · ~~17.00×~~")) << md.toStdString();
  const QString text = view.toPlainText();
  const int verdict = text.indexOf("Caught hack: the recorded speedup is not the kernel's win.");
  ASSERT_GE(verdict, 0) << text.toStdString();
  EXPECT_LT(verdict, text.indexOf("No analysis recorded")) << "before what the file says";
  EXPECT_TRUE(struckIn(view.document(), QStringLiteral("17.00×")));

  view.showRow(run, test::kRowC);
  EXPECT_FALSE(view.toPlainText().contains("Caught hack"));
  EXPECT_FALSE(struckIn(view.document(), QStringLiteral("3.000×")));
}

TEST(VerdictFirst, TheMeasurementsPaneShowsAClaimByTheRule) {
  const auto run = test::syntheticRun();
  MeasurementsView view;
  view.showRow(run, nullptr, test::kRowE);
  EXPECT_TRUE(view.headline().contains("caught hack · <s>17.00×</s>")) << view.headline().toStdString();
  const MeasurementTableModel* model = view.model();
  ASSERT_EQ(model->claimCount(), 1);
  EXPECT_EQ(model->index(0, MeasurementTableModel::OutcomeColumn).data().toString(), "caught hack · claimed");
  EXPECT_TRUE(
      model->index(0, MeasurementTableModel::SpeedupColumn).data(Qt::FontRole).value<QFont>().strikeOut());
  EXPECT_TRUE(model->index(0, MeasurementTableModel::SpeedupColumn)
                  .data(Qt::ToolTipRole)
                  .toString()
                  .contains("Struck through: caught hack in its code: extra-stream"));

  view.showRow(run, nullptr, test::kRowC);
  EXPECT_TRUE(view.headline().contains("recorded <b>3.000×</b>")) << view.headline().toStdString();
  EXPECT_EQ(view.model()->index(0, MeasurementTableModel::OutcomeColumn).data().toString(), "claimed");
}

// The case: L2/96 of the CUDA-L1 release (368.2× recorded, a caught hack), in the window at the
// smallest screen and at 1280 × 800.
class VerdictFirstInTheWindow : public ::testing::TestWithParam<QSize> {};

TEST_P(VerdictFirstInTheWindow, EveryPaneSaysCaughtHackBeforeTheClaimOfL2Task96) {
  if (!QFileInfo::exists(kCudaL1Release)) GTEST_SKIP() << "no CUDA-L1 release at " << kCudaL1Release.toStdString();
  forgetWindowLayout();
  MainWindow window;
  window.resize(GetParam());
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  QSignalSpy flagsShown(&window, &MainWindow::flagsShown);
  window.openPath(kCudaL1Release);
  ASSERT_TRUE(flagsShown.wait(120000));
  ASSERT_EQ(window.size(), GetParam());
  const int row = window.run()->findRow("L2/96", "cuda-l1");
  ASSERT_GE(row, 0);
  window.taskTable()->setCurrentRow(row);
  QTest::qWait(50);

  // The header: "Candidate", the verdict whole and first, then the id and the struck-through claim.
  auto* verdict = window.findChild<QLabel*>(QStringLiteral("candidateVerdict"));
  auto* title = window.findChild<QLabel*>(QStringLiteral("candidateTitle"));
  auto* claim = window.findChild<QLabel*>(QStringLiteral("candidateClaim"));
  ASSERT_TRUE(verdict && title && claim);
  ASSERT_TRUE(verdict->isVisible());
  EXPECT_EQ(verdict->text(), "Caught hack");
  EXPECT_GE(verdict->contentsRect().width(), verdict->fontMetrics().horizontalAdvance(verdict->text()));
  const QWidget* side = verdict->parentWidget();
  EXPECT_TRUE(side->rect().contains(rectIn(verdict, side))) << "not cut off by the pane's edge";
  EXPECT_LE(verdict->geometry().right(), title->geometry().left());
  EXPECT_LE(title->geometry().right(), claim->geometry().left());
  EXPECT_TRUE(claim->font().strikeOut());
  EXPECT_TRUE(claim->isVisible());
  EXPECT_GT(claim->width(), 0);
  EXPECT_EQ(title->toolTip(), "Caught hack · cuda-l1 · 368.2× recorded");
  if (GetParam().width() >= 1280) {  // room for all of it
    EXPECT_EQ(title->text(), "cuda-l1");
    EXPECT_EQ(claim->text(), "368.2× recorded");
  }
  // The reference's header keeps room too.
  auto* reference = window.findChild<QLabel*>(QStringLiteral("referenceTitle"));
  EXPECT_GE(reference->width(), reference->minimumSizeHint().width());

  // Measurements: the headline and the claim rows.
  MeasurementsView* measurements = window.measurementsView();
  EXPECT_TRUE(measurements->headline().contains("caught hack · <s>368.2×</s>"))
      << measurements->headline().toStdString();
  const MeasurementTableModel* claims = measurements->model();
  ASSERT_GT(claims->claimCount(), 0);
  for (int r = 0; r < claims->claimCount(); ++r) {
    EXPECT_EQ(claims->index(r, MeasurementTableModel::OutcomeColumn).data().toString(),
              "caught hack · claimed");
    EXPECT_TRUE(
        claims->index(r, MeasurementTableModel::SpeedupColumn).data(Qt::FontRole).value<QFont>().strikeOut());
  }

  // Analysis: the verdict before the recorded list, whose numbers are struck through.
  AnalysisView* analysis = window.analysisView();
  const QString text = analysis->toPlainText();
  const int said = text.indexOf("Caught hack: the recorded speedup is not the kernel's win.");
  ASSERT_GE(said, 0) << text.toStdString();
  EXPECT_LT(said, text.indexOf("Recorded measurements"));
  EXPECT_TRUE(struckIn(analysis->document(), QStringLiteral("368.2×")));
  EXPECT_TRUE(analysis->markdownShown().contains("caught hack · ~~368.2×~~"));
  window.close();
}

INSTANTIATE_TEST_SUITE_P(Sizes, VerdictFirstInTheWindow,
                         ::testing::Values(QSize(1024, 700), QSize(1280, 800)), [](const auto& info) {
                           return std::to_string(info.param.width()) + "x" +
                                  std::to_string(info.param.height());
                         });

// sample_runs/search-softmax: every number has origin "measured" (timed by KernelScope on an H100 and kept
// in the file). The Measured column shows them — the Search tab's tooltip does — and a re-run here, when
// there is one, replaces the file's number.
TEST(MeasuredColumn, ShowsTheNumbersARunFileCarriesFromKernelScope) {
  const auto run = std::make_shared<const LoadedRun>(loadAny(kSearchSample.toStdString()));
  ASSERT_EQ(run->rowCount(), 13);
  CandidateTableModel model;
  model.setRun(run);
  const int measured = model.measuredColumn();
  const auto cell = [&](int row, int role = Qt::DisplayRole) {
    return model.index(row, measured).data(role);
  };
  const SearchTree tree = SearchTree::build(*run);
  const std::vector<SearchNodeState> states = searchNodeStates(*run, nullptr, tree);
  for (int row = 0; row < run->rowCount(); ++row) {
    EXPECT_NE(cell(row).toString(), "—") << run->candidate(row)->id;
    // The same number as the Search tab's tooltip for the candidate.
    const int node = tree.nodeOfRow(row);
    const SearchNodeState& state = states[static_cast<std::size_t>(node)];
    if (state.speedup) {
      EXPECT_EQ(cell(row).toString(), formatSpeedup(*state.speedup));
      EXPECT_TRUE(searchNodeToolTip(*run, tree, node, state)
                      .contains(formatSpeedup(*state.speedup) + QStringLiteral(" faster")));
    }
  }
  const int r2b = run->findRow("L1/923", "r2b");
  EXPECT_EQ(cell(r2b).toString(), "1.138×");
  EXPECT_DOUBLE_EQ(model.measuredSpeedup(r2b), 1.1377);
  EXPECT_TRUE(cell(r2b, Qt::ToolTipRole).toString().contains("by KernelScope on NVIDIA H100 80GB HBM3"))
      << cell(r2b, Qt::ToolTipRole).toString().toStdString();
  EXPECT_FALSE(cell(r2b, Qt::ForegroundRole).isValid()) << "not greyed as never measured";
  EXPECT_EQ(cell(run->findRow("L1/923", "r1d")).toString(), "✗ incorrect");
  EXPECT_EQ(cell(run->findRow("L1/923", "r2d")).toString(), "✗ error");
  EXPECT_TRUE(cell(run->findRow("L1/923", "r1d"), Qt::BackgroundRole).isValid());
  // No claim in the file: the Speedup column (recorded claims) stays empty.
  EXPECT_EQ(model.index(r2b, model.speedupColumn(0)).data().toString(), "—");

  auto history = std::make_shared<MeasuredHistory>(run->rowCount());
  history->add(r2b, {test::timedRun(2.0), true});
  model.setHistory(history);
  EXPECT_EQ(cell(r2b).toString(), "2.000×");
  EXPECT_EQ(cell(run->findRow("L1/923", "r2a")).toString(), "0.861×");
}

}  // namespace
}  // namespace ks
