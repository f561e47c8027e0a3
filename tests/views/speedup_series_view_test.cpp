// The CUDA-L2 release as a new user opens it (skipped with the reason when it is not at ../shared): the task
// list tells its 1000 shapes apart, its Speedup column shows a number on every row in the release's first
// recorded series and names it, the vs box and the charts' Baseline choose one series for every view (the
// column, the charts, the header, the Measurements headline), and an empty chart says why without axes.
// CUDA-L1 and the sample runs look as they did: "default", its Speedup column, keys and names.
#include <gtest/gtest.h>

#include <QAbstractAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "app/kernelscope/main_window.h"
#include "app/kernelscope/run_loader.h"
#include "core/formats/load.h"
#include "core/protocol/gemm_baselines.h"
#include "ks_test_paths.h"
#include "tests/view_logic/synthetic_run.h"
#include "views/charts/charts_view.h"
#include "views/logic/loaded_run.h"
#include "views/logic/measured_history.h"
#include "views/logic/open_run.h"
#include "views/logic/speedup_format.h"
#include "views/logic/speedup_series.h"
#include "views/item_models/candidate_filter_proxy.h"
#include "views/item_models/candidate_table_model.h"
#include "views/widgets/code_compare_view.h"
#include "views/widgets/elided_label.h"
#include "views/widgets/measurements_view.h"
#include "views/widgets/task_table.h"
#include "tests/views/gui_test_support.h"
#include "tests/view_logic/cuda_l2_release.h"

namespace ks {
namespace {

using guitest::kCudaL1Release;
using guitest::kCudaL2Release;
using guitest::kDiagSample;




class SpeedupSeriesViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window.resize(1024, 700);
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  }
  bool open(const QString& path) {
    QSignalSpy shown(&window, &MainWindow::runShown);
    QSignalSpy failed(window.loader(), &RunLoader::failed);
    window.openPath(path);
    for (int waited = 0; waited < 60000 && shown.isEmpty() && failed.isEmpty(); waited += 20)
      QTest::qWait(20);
    return !shown.isEmpty();
  }
  CandidateTableModel* model() const { return window.taskTable()->model(); }
  QHeaderView* header() const { return window.taskTable()->view()->horizontalHeader(); }
  QComboBox* vsBox() const { return window.findChild<QComboBox*>(QStringLiteral("filterBaseline")); }
  QComboBox* chartBox() const { return window.findChild<QComboBox*>(QStringLiteral("chartBaseline")); }
  // A header's words on one line (a series' header has a line for "Speedup vs", its baseline and its mode).
  QString headerText(int column) const {
    return model()
        ->headerData(column, Qt::Horizontal, Qt::DisplayRole)
        .toString()
        .replace(QStringLiteral("-\n"), QStringLiteral("-"))
        .replace('\n', ' ');
  }
  // The visible columns' headers, left to right.
  QStringList shownHeaders() const {
    QStringList out;
    for (int v = 0; v < header()->count(); ++v)
      if (const int c = header()->logicalIndex(v); !header()->isSectionHidden(c)) out << headerText(c);
    return out;
  }
  int rowOf(const LoadedRun& run, std::int64_t m, std::int64_t n, std::int64_t k) const {
    for (int r = 0; r < run.rowCount(); ++r)
      if (const Task& t = run.task(r); t.gemm && t.gemm->m == m && t.gemm->n == n && t.gemm->k == k) return r;
    return -1;
  }
  QString cell(int row, int column) const { return model()->index(row, column).data().toString(); }
  int chartedCount() const {
    qreal total = 0;
    for (QBarSet* set : window.chartsView()->histogramSets())
      for (int i = 0; i < set->count(); ++i) total += set->at(i);
    return static_cast<int>(total);
  }

  MainWindow window;
};

TEST_F(SpeedupSeriesViewTest, TheReleasesRowsShowTheirShapeAndARecordedNumberInItsFirstSeries) {
  NEED_CUDA_L2_RELEASE();
  window.showRun(kCudaL2Release, run);
  EXPECT_EQ(window.openRun()->series(), (SpeedupSeries{"torch.matmul", "offline"}));
  // Where the eye lands: the shape, told apart on every row; the name that only repeated it is hidden.
  EXPECT_EQ(headerText(CandidateTableModel::TaskColumn), "Shape (M×N×K)");
  const int row = rowOf(*run, 64, 4096, 4096);
  ASSERT_GE(row, 0);
  EXPECT_EQ(cell(row, CandidateTableModel::TaskColumn), "64×4096×4096");
  EXPECT_TRUE(header()->isSectionHidden(CandidateTableModel::NameColumn));
  const QFontMetrics metrics(window.taskTable()->view()->font());
  EXPECT_GE(header()->sectionSize(CandidateTableModel::TaskColumn),
            metrics.horizontalAdvance(QStringLiteral("16384×16384×16384")))
      << "no shape is cut off";
  // The Speedup column: the first recorded series, named with its mode, a number on every row.
  EXPECT_EQ(model()->chosenColumn(), model()->speedupColumn(0));
  EXPECT_EQ(headerText(model()->chosenColumn()), "Speedup vs torch.matmul (offline)");
  EXPECT_EQ(model()->headerData(model()->chosenColumn(), Qt::Horizontal, Qt::DisplayRole).toString(),
            "Speedup vs\ntorch.matmul\n(offline)");
  EXPECT_FALSE(header()->isSectionHidden(model()->chosenColumn()));
  // At 1024 × 700 the shape and the number are both in view, without scrolling sideways.
  QTableView* table = window.taskTable()->view();
  EXPECT_LE(header()->sectionViewportPosition(model()->chosenColumn()) +
                header()->sectionSize(model()->chosenColumn()),
            table->viewport()->width())
      << "shape " << header()->sectionSize(CandidateTableModel::TaskColumn) << " speedup "
      << header()->sectionSize(model()->chosenColumn()) << " of " << table->viewport()->width();
  for (int r = 0; r < run->rowCount(); ++r) ASSERT_NE(cell(r, model()->chosenColumn()), "—") << r;
  EXPECT_EQ(cell(rowOf(*run, 64, 64, 64), model()->chosenColumn()), "1.837×");
  EXPECT_EQ(vsBox()->currentText(), "torch.matmul (offline)");
  EXPECT_EQ(vsBox()->count(), 20);
  EXPECT_EQ(shownHeaders(),
            (QStringList{"Shape (M×N×K)", "Speedup vs torch.matmul (offline)", "Measured", "Flags", "Code"}));
  // The charts chart it: 1000 candidates, no "No candidate records …".
  EXPECT_EQ(window.chartsView()->baseline(), "torch.matmul (offline)");
  EXPECT_EQ(chartedCount(), 1000);
  EXPECT_FALSE(window.chartsView()->summaryText().contains("No candidate"));
  // The Measurements headline lists what is recorded; the candidate's header names the claim's series.
  window.taskTable()->setCurrentRow(rowOf(*run, 64, 64, 64));
  const QString headline = window.measurementsView()->headline();
  EXPECT_TRUE(headline.contains("recorded <b>1.837×</b> vs torch.matmul (offline)"))
      << headline.toStdString();
  EXPECT_TRUE(headline.contains("20 recorded: torch.matmul, cuBLAS-tn")) << headline.toStdString();
  EXPECT_FALSE(headline.contains("no speedup recorded"));
  auto* claim = window.codeView()->findChild<ElidedLabel*>(QStringLiteral("candidateClaim"));
  ASSERT_NE(claim, nullptr);
  EXPECT_TRUE(claim->toolTip().endsWith("1.837× recorded vs torch.matmul (offline)"))
      << claim->toolTip().toStdString();
}

TEST_F(SpeedupSeriesViewTest, TheVsBoxAndTheChartsBaselineChooseOneSeriesForEveryView) {
  NEED_CUDA_L2_RELEASE();
  window.showRun(kCudaL2Release, run);
  const int first = rowOf(*run, 64, 64, 64);
  window.taskTable()->setCurrentRow(first);
  window.taskTable()->view()->sortByColumn(model()->chosenColumn(), Qt::DescendingOrder);
  const int oldColumn = model()->chosenColumn();
  const int visual = header()->visualIndex(oldColumn);

  // The vs box: the Speedup column, its header, the charts and the open run follow.
  vsBox()->setCurrentIndex(vsBox()->findText(QStringLiteral("cuBLAS-max (offline)")));
  const SpeedupSeries cublas{"cuBLAS-max", "offline"};
  EXPECT_EQ(window.openRun()->series(), cublas);
  const int now = model()->chosenColumn();
  EXPECT_NE(now, oldColumn);
  EXPECT_EQ(headerText(now), "Speedup vs cuBLAS-max (offline)");
  EXPECT_EQ(header()->visualIndex(now), visual) << "in the Speedup column's place";
  EXPECT_TRUE(header()->isSectionHidden(oldColumn));
  EXPECT_EQ(header()->sortIndicatorSection(), now) << "the sort follows the column";
  EXPECT_EQ(cell(first, now), "1.859×");
  EXPECT_EQ(chartBox()->currentText(), "cuBLAS-max (offline)");
  EXPECT_EQ(window.chartsView()->baseline(), "cuBLAS-max (offline)");
  EXPECT_EQ(chartedCount(), 1000);
  const auto& points = window.chartsView()->distribution().points();
  const auto at = std::find_if(points.begin(), points.end(), [&](const auto& p) { return p.row == first; });
  ASSERT_NE(at, points.end());
  EXPECT_DOUBLE_EQ(at->speedup, 1.859);
  EXPECT_TRUE(
      window.measurementsView()->headline().contains("recorded <b>1.859×</b> vs cuBLAS-max (offline)"))
      << window.measurementsView()->headline().toStdString();
  EXPECT_TRUE(window.codeView()
                  ->findChild<ElidedLabel*>(QStringLiteral("candidateClaim"))
                  ->toolTip()
                  .endsWith("1.859× recorded vs cuBLAS-max (offline)"));
  // The range filter is over the shown series: 64×64×64 records 1.859 against cuBLAS-max offline.
  auto* low = window.findChild<QDoubleSpinBox*>(QStringLiteral("filterMinSpeedup"));
  ASSERT_NE(low, nullptr);
  low->setValue(1.85);
  const int shownAbove = window.taskTable()->shownCount();
  int expected = 0;
  for (int r = 0; r < run->rowCount(); ++r) expected += *recordedSpeedup(*run->candidate(r), cublas) >= 1.85;
  EXPECT_EQ(shownAbove, expected);
  low->setValue(0);

  // The charts' Baseline: the vs box and the column follow back.
  chartBox()->setCurrentIndex(chartBox()->findText(QStringLiteral("torch.matmul (server)")));
  const SpeedupSeries server{"torch.matmul", "server"};
  EXPECT_EQ(window.openRun()->series(), server);
  EXPECT_EQ(vsBox()->currentText(), "torch.matmul (server)");
  EXPECT_EQ(headerText(model()->chosenColumn()), "Speedup vs torch.matmul (server)");
  EXPECT_EQ(cell(first, model()->chosenColumn()),
            formatSpeedup(*recordedSpeedup(*run->candidate(first), server)));
  EXPECT_FALSE(header()->isSectionHidden(model()->chosenColumn()));
  EXPECT_TRUE(header()->isSectionHidden(now));
  EXPECT_EQ(header()->visualIndex(model()->chosenColumn()), visual);

  // The longest baseline's header breaks after its hyphens: its numbers stay in view at 1024 × 700 (in the
  // list's own order; sorted by it, the arrow's room scrolls it a few pixels).
  window.taskTable()->view()->sortByColumn(CandidateTableModel::TaskColumn, Qt::AscendingOrder);
  vsBox()->setCurrentIndex(vsBox()->findText(QStringLiteral("cuBLASLt-auto-tuning-max (server)")));
  const int widest = model()->chosenColumn();
  EXPECT_EQ(model()->headerData(widest, Qt::Horizontal, Qt::DisplayRole).toString(),
            "Speedup vs\ncuBLASLt-\nauto-tuning-\nmax (server)");
  EXPECT_EQ(headerText(widest), "Speedup vs cuBLASLt-auto-tuning-max (server)");
  QTableView* table = window.taskTable()->view();
  EXPECT_LE(header()->sectionViewportPosition(widest) + header()->sectionSize(widest),
            table->viewport()->width())
      << "shape " << header()->sectionSize(CandidateTableModel::TaskColumn) << " speedup "
      << header()->sectionSize(widest) << " of " << table->viewport()->width();
}

TEST_F(SpeedupSeriesViewTest, AnEmptyChartSaysWhyAndDrawsNoAxes) {
  RunFile file;
  Task& t = file.tasks.emplace_back();
  t.level = 1;
  t.number = 1;
  t.name = "1_Matmul";
  t.candidates.emplace_back().id = "a";
  window.showRun(QStringLiteral("/tmp/nothing-recorded.jsonl"), std::make_shared<const LoadedRun>(file));
  window.showPane(MainWindow::Pane::Charts);
  QTest::qWait(20);
  ChartsView* charts = window.chartsView();
  for (QChartView* view : {charts->histogramView(), charts->cdfView(), charts->levelView()}) {
    QChart* chart = view->chart();
    EXPECT_TRUE(chart->axes().isEmpty()) << view->objectName().toStdString();
    EXPECT_TRUE(chart->title().contains("The file records no speedup")) << chart->title().toStdString();
  }
  EXPECT_TRUE(charts->summaryText().contains("The file records no speedup"))
      << charts->summaryText().toStdString();
}

TEST_F(SpeedupSeriesViewTest, CudaL1LooksAsBeforeDefaultItsSpeedupColumnKeysAndNames) {
  if (!QFileInfo::exists(kCudaL1Release)) GTEST_SKIP() << "the CUDA-L1 file is not at " << kCudaL1Release.toStdString();
  ASSERT_TRUE(open(kCudaL1Release));
  const auto& run = window.run();
  EXPECT_TRUE(window.openRun()->series().isDefault());
  EXPECT_EQ(headerText(CandidateTableModel::TaskColumn), "Task");
  EXPECT_EQ(model()->chosenColumn(), model()->speedupColumn(0));
  EXPECT_EQ(headerText(model()->speedupColumn(0)), "Speedup");
  EXPECT_EQ(headerText(model()->speedupColumn(1)), "vs compile");
  EXPECT_EQ(shownHeaders(), (QStringList{"Task", "Name", "Speedup", "Measured", "Flags", "Code"}));
  EXPECT_EQ(vsBox()->currentText(), "default");
  EXPECT_EQ(window.chartsView()->baseline(), "default");
  for (int r = 0; r < run->rowCount(); ++r) {
    EXPECT_EQ(cell(r, CandidateTableModel::TaskColumn).toStdString(), run->task(r).key());
    EXPECT_EQ(cell(r, CandidateTableModel::NameColumn).toStdString(), run->task(r).name);
    const auto s = run->candidate(r) ? run->candidate(r)->speedup() : std::nullopt;
    EXPECT_EQ(cell(r, model()->speedupColumn(0)), s ? formatSpeedup(*s) : QStringLiteral("—")) << r;
  }
  int recorded = 0;
  for (int r = 0; r < run->rowCount(); ++r) recorded += run->candidate(r) && run->candidate(r)->speedup();
  EXPECT_EQ(
      window.chartsView()->distribution().points().size() + window.chartsView()->distribution().unplottable(),
      static_cast<std::size_t>(recorded));
  const int row = run->findRow("L1/12", "");
  window.taskTable()->setCurrentRow(row);
  const QString headline = window.measurementsView()->headline();
  EXPECT_TRUE(headline.startsWith("recorded <b")) << headline.toStdString();
  EXPECT_FALSE(headline.contains(" vs ")) << headline.toStdString();
  EXPECT_FALSE(headline.contains("recorded:")) << headline.toStdString();
}

TEST_F(SpeedupSeriesViewTest, TheSampleRunsKeepTheirDefaultSpeedupColumn) {
  ASSERT_TRUE(open(kDiagSample));
  EXPECT_TRUE(window.openRun()->series().isDefault());
  EXPECT_EQ(window.run()->series().size(), 1u);
  EXPECT_EQ(headerText(model()->chosenColumn()), "Speedup");
  EXPECT_EQ(headerText(CandidateTableModel::TaskColumn), "Task");
  EXPECT_FALSE(header()->isSectionHidden(CandidateTableModel::NameColumn));
  EXPECT_EQ(window.chartsView()->baseline(), "default");
}

TEST_F(SpeedupSeriesViewTest, RecordedVsMeasuredPlotsTheReRunAgainstTheSameBaselineAndModeAndNoHackAsAWin) {
  NEED_CUDA_L2_RELEASE();
  window.showRun(kCudaL2Release, run);
  const int clean = rowOf(*run, 64, 64, 64), hacked = rowOf(*run, 64, 64, 128);
  // Re-runs that timed the release's baselines by CUDA-L2's methods (core/stats/gemm_methods.h).
  const auto rerun = [](double own, double offline, std::vector<protocol::RuntimeFlag> flags) {
    runs::MeasuredRun r = test::timedRun(own, "sha256:recorded", std::move(flags));
    protocol::GemmBaselines b;
    b.timings =
        protocol::withFasterLayouts({{"torch.matmul", "cuda-l2-offline", 40, 1, 1, offline, 0, 0, ""},
                                     {"cuBLAS-tn", "cuda-l2-offline", 40, 1, 1, offline / 2, 0, 0, ""},
                                     {"cuBLAS-nn", "cuda-l2-offline", 40, 1, 1, offline / 3, 0, 0, ""}});
    r.result->baselines = b;
    return MeasuredHistory::Entry{r, true};
  };
  window.openRun()->addRun(clean, rerun(1.9, 1.8, {}));
  window.openRun()->addRun(
      hacked, rerun(9.0, 8.0, {protocol::RuntimeFlag{.family = "cached-output", .severity = "hack"}}));
  ChartsView* charts = window.chartsView();
  ASSERT_EQ(charts->versusPoints().size(), 2u);
  for (const auto& p : charts->versusPoints()) {
    if (p.row == clean) {
      EXPECT_DOUBLE_EQ(p.at.x(), 1.837) << "recorded torch.matmul (offline)";
      EXPECT_DOUBLE_EQ(p.at.y(), 1.8) << "measured torch.matmul by cuda-l2-offline, not the run's own 1.9";
      EXPECT_TRUE(p.verdict.empty());
    } else {
      EXPECT_EQ(p.row, hacked);
      EXPECT_EQ(p.verdict, "caught hack") << "drawn grey, never as agreeing or as a win";
    }
  }
  EXPECT_TRUE(charts->versusView()->chart()->title().contains("vs torch.matmul (offline)"))
      << charts->versusView()->chart()->title().toStdString();
  // The charts' other numbers: the caught hack is not among the wins.
  EXPECT_EQ(charts->distribution().caughtHacks(), 1);
  EXPECT_TRUE(charts->notWinsText().contains("1 caught hack")) << charts->notWinsText().toStdString();
  // cuBLAS-max: the faster layout's timing, the smaller speedup (cuBLAS-nn's 0.6), the release's rule.
  charts->setBaseline(QStringLiteral("cuBLAS-max (offline)"));
  for (const auto& p : charts->versusPoints()) {
    if (p.row == clean) {
      EXPECT_DOUBLE_EQ(p.at.x(), 1.859);
      EXPECT_DOUBLE_EQ(p.at.y(), 0.6);
    }
  }
  // A series the re-runs do not time (server): nothing to plot, and the title says why.
  charts->setBaseline(QStringLiteral("torch.matmul (server)"));
  EXPECT_TRUE(charts->versusPoints().empty());
  EXPECT_TRUE(
      charts->versusView()->chart()->title().contains("2 not timed against torch.matmul (server) here"))
      << charts->versusView()->chart()->title().toStdString();
}

}  // namespace
}  // namespace ks
